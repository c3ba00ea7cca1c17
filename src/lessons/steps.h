// Building a lesson's steps from command lines, and the lessons kept in files of their own.
#pragma once

#include <functional>
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

// A step that runs `program` with `args` as they are (an SQL statement is one argument).
inline LessonStep run_program(std::string say, std::string program, std::vector<std::string> args,
                              int expect_exit = 0) {
  LessonStep out{std::move(say), std::move(args), expect_exit};
  out.program = std::move(program);
  return out;
}

// NAME=$(idemlab command): its one line of output, kept as $NAME for later steps.
inline LessonStep captured(std::string say, std::string name, std::string_view command) {
  LessonStep out{std::move(say), words(command)};
  out.capture = std::move(name);
  return out;
}

// A command left waiting at its gate while later steps run; release() opens the gate.
inline LessonStep held(std::string say, std::string_view command) {
  LessonStep out{std::move(say), words(command)};
  out.hold = true;
  return out;
}

// Opens the gate of the held command and waits for it: it must exit `expect_exit`.
inline LessonStep release(std::string say, int expect_exit = 0) {
  LessonStep out{std::move(say), {}, expect_exit};
  out.release = true;
  return out;
}

// A command run again, 50 ms apart, while it exits `busy_exit` (a lock still held).
inline LessonStep again_while(std::string say, std::string_view command, int busy_exit) {
  LessonStep out{std::move(say), words(command)};
  out.again_while = busy_exit;
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
Lesson standby_has_not_seen_it();     // standby_lessons.cpp
Lesson failover_forgets_answer();     // standby_lessons.cpp
Lesson failover_forgets_token();      // redis_lesson.cpp
Lesson lock_needs_fence();            // lock_lesson.cpp

// The two lock lessons' steps: a ledger; a holder stopped at its gate; a twin retried while
// it is refused, until the lock is free; the holder resumed; the audit; then the same with
// --fence, the resumed holder refused. `attempt(biz_seq, extra)` is one holder's command.
struct StoppedHolderWords {
  std::string held, twin, resumed, fenced_held, fenced_resumed;
};
std::vector<LessonStep> stopped_holder_steps(
    const std::function<std::string(std::string_view, std::string_view)>& attempt,
    std::string_view first, std::string_view second, const StoppedHolderWords& say);
Lesson lease_is_not_a_lock();         // lease_lesson.cpp
Lesson broker_dedups_for_a_window();  // window_lesson.cpp
Lesson ha_manager_failover();         // ha_lesson.cpp

}  // namespace idemlab
