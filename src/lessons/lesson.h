// Lessons: numbered demonstrations that follow the references' order. Each one runs real
// idemlab commands (one-attempt processes on a scratch ledger, or the seeded simulator) and
// checks that each ends as the lesson says it does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace idemlab {

struct LessonStep {
  std::string say;                // narration before the command
  std::vector<std::string> args;  // the idemlab command line, without "idemlab"
  int expect_exit = 0;            // what the command must exit with for the lesson to hold
  // Twins: more than 0 runs that many copies at once, each held at the gate its --fault
  // slow:gate=gate names, until every copy has arrived there or ended. Their exits, sorted,
  // must then be `twin_exits` (and `expect_exit` is not used).
  int twins = 0;
  std::vector<int> twin_exits = {};
  // Another program than idemlab, found on PATH (curl): run as it is, without --width.
  std::string program = {};
  // idemlab serve --listen 127.0.0.1:0, left running until the lesson ends; in later steps'
  // args and in every output, kBasePlaceholder stands for where it listens.
  bool background = false;
};

inline constexpr std::string_view kBasePlaceholder = "$BASE";

// In a step's args, where the URL of a server the teacher gave goes: `idemlab lesson N
// --postgres URL --mariadb URL`. Without it, the step is skipped, and says so.
inline constexpr std::string_view kPostgresPlaceholder = "$POSTGRES";
inline constexpr std::string_view kMariadbPlaceholder = "$MARIADB";
// A RabbitMQ broker the teacher gave (`--broker URL`), and a queue of the lesson's own there.
inline constexpr std::string_view kBrokerPlaceholder = "$BROKER";
inline constexpr std::string_view kQueuePlaceholder = "$QUEUE";

struct LessonServers {
  std::string postgres;  // a scratch PostgreSQL database: the lesson re-creates its tables there
  std::string mariadb;   // the same, on MariaDB
  std::string broker;    // a RabbitMQ broker: the lesson uses a queue of its own there
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

// What the lesson needs that `servers` does not give: "" when nothing, else one line naming the
// options and how to start the servers (scripts/servers up ...). A lesson that needs a server
// runs whole or not at all.
std::string missing_servers(const Lesson& lesson, const LessonServers& servers);

// Runs a lesson's steps with `binary` in a fresh scratch folder, printing the narration, each
// command and its output. Fails (kInternal) if a step exits other than the lesson says.
Status run_lesson(const Lesson& lesson, const std::string& binary, const LessonServers& servers);

}  // namespace idemlab
