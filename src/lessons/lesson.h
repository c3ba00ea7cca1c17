// Lessons: numbered demonstrations that follow the references' order. Each one runs real
// idemlab commands (one-attempt processes on a scratch ledger, or the seeded simulator) and
// checks that each ends as the lesson says it does.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace idemlab {

struct LessonStep {
  std::string say;                // narration before the command
  std::vector<std::string> args;  // the idemlab command line, without "idemlab"
  int expect_exit = 0;            // what the command must exit with for the lesson to hold
};

struct Lesson {
  int number = 0;
  std::string name;  // e.g. "timeout-is-unknown"
  std::string title;
  std::string reference;  // article and section
  std::string intro;
  std::vector<LessonStep> steps;
  std::string takeaway;
};

const std::vector<Lesson>& all_lessons();
// By number ("3") or name; null if there is none.
const Lesson* find_lesson(const std::string& number_or_name);

// Runs a lesson's steps with `binary` in a fresh scratch folder, printing the narration, each
// command and its output. Fails (kInternal) if a step exits other than the lesson says.
Status run_lesson(const Lesson& lesson, const std::string& binary);

}  // namespace idemlab
