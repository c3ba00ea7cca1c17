// Building a lesson's steps from command lines, and the lessons kept in files of their own.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lessons/lesson.h"

namespace idemlab {

inline std::vector<std::string> words(std::string_view line) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < line.size()) {
    const size_t end = std::min(line.find(' ', start), line.size());
    if (end > start) out.emplace_back(line.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

inline LessonStep step(std::string say, std::string_view command, int expect_exit = 0) {
  return LessonStep{std::move(say), words(command), expect_exit};
}

// `count` copies of `command` at once, held at the gate; their exits, sorted, must be `exits`.
inline LessonStep twins(std::string say, std::string_view command, std::vector<int> exits) {
  LessonStep out{std::move(say), words(command)};
  out.twins = static_cast<int>(exits.size());
  out.twin_exits = std::move(exits);
  return out;
}

// A step that runs `program` (found on PATH) instead of idemlab.
inline LessonStep run_program(std::string say, std::string program, std::string_view command,
                              int expect_exit = 0) {
  LessonStep out{std::move(say), words(command), expect_exit};
  out.program = std::move(program);
  return out;
}

// `idemlab serve ...` left running until the lesson ends; later steps reach it at $BASE.
inline LessonStep in_background(std::string say, std::string_view command) {
  LessonStep out{std::move(say), words(command)};
  out.background = true;
  return out;
}

Lesson one_strategy_three_engines();  // engines_lesson.cpp
Lesson client_retries_over_http();    // http_lesson.cpp
Lesson offset_is_not_a_key();         // queue_lessons.cpp
Lesson queue_redelivers();            // queue_lessons.cpp

}  // namespace idemlab
