// Lessons: numbered demonstrations that follow the references' order. Each one runs real
// idemlab commands (one-attempt processes on a scratch ledger, or the seeded simulator) and
// checks that each ends as the lesson says it does.
#pragma once

#include <map>
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
  // "$TOKEN": the command's output, one value, is kept under this name: later steps' args take
  // it, and later outputs show the name. Shown as TOKEN=$(idemlab ...).
  std::string capture = {};
  // Held: started, and left waiting at the gate its --fault names (slow or pause, gate=gate)
  // while later steps run, until a step with `release` opens the gate; that step shows its
  // output and checks its exit against its own expect_exit.
  bool hold = false;
  bool release = false;
  // Run again while the command exits this (in_progress while a lock is held), 50 ms apart,
  // for at most a minute; only the last run is shown. 0: once.
  int again_while = 0;
};

inline constexpr std::string_view kBasePlaceholder = "$BASE";

// A queue of the lesson's own on the broker the teacher gave.
inline constexpr std::string_view kQueuePlaceholder = "$QUEUE";

// Where, in a step's args, the URL of a server the teacher gave goes (lesson_server_kinds()).
inline constexpr std::string_view kPostgresPlaceholder = "$POSTGRES";
inline constexpr std::string_view kMariadbPlaceholder = "$MARIADB";
inline constexpr std::string_view kBrokerPlaceholder = "$BROKER";
inline constexpr std::string_view kPrimaryPlaceholder = "$PRIMARY";
inline constexpr std::string_view kStandbyPlaceholder = "$STANDBY";
inline constexpr std::string_view kSentinelPlaceholder = "$SENTINEL";
inline constexpr std::string_view kRedisPrimaryPlaceholder = "$REDIS_PRIMARY";
inline constexpr std::string_view kZookeeperPlaceholder = "$ZOOKEEPER";
inline constexpr std::string_view kGaleraPlaceholder = "$GALERA";
inline constexpr std::string_view kEtcdPlaceholder = "$ETCD";
inline constexpr std::string_view kNatsPlaceholder = "$NATS";
// In a twins step's args: each copy's number, from 1 (a copy per node: "$GALERA?node={copy}").
inline constexpr std::string_view kCopyPlaceholder = "{copy}";

// A server a lesson's steps name by a placeholder ($POSTGRES), given to `idemlab lesson` with an
// option (--postgres URL). Without it, a lesson that names it does not run, and says how to
// start it.
struct Lesson;

struct LessonServerKind {
  std::string_view placeholder;  // "$POSTGRES"
  std::string_view option;       // "--postgres"
  std::string_view scheme;       // its URL's scheme: "postgresql"
  std::string_view up;           // what `scripts/servers up` starts it with: "postgres"
  std::string_view env;          // where `scripts/servers env` puts its URL
  std::string_view help;         // the option's help
  // Optional: a lesson runs without it, its steps that name it left out (and said so).
  bool optional = false;
};
const std::vector<LessonServerKind>& lesson_server_kinds();

// The placeholder an argument begins with ("$ZOOKEEPER?session_ms=400"), or "".
std::string_view placeholder_of(std::string_view arg);
// The servers a lesson's steps name, in lesson_server_kinds()' order.
std::vector<const LessonServerKind*> servers_named(const Lesson& lesson);

// The URLs the teacher gave, by placeholder.
using LessonServers = std::map<std::string, std::string, std::less<>>;

struct Lesson {
  int number = 0;
  std::string name;  // e.g. "timeout-is-unknown"
  std::string title;
  std::string reference;  // article and section
  std::string intro;
  std::vector<LessonStep> steps;
  std::string takeaway;
  // Runs with any of the servers its steps name: the steps that name one not given are left out,
  // and said so (one server at least must be given). Otherwise a lesson runs whole or not at all
  // (LessonServerKind::optional aside).
  bool any_server = false;
};

const std::vector<Lesson>& all_lessons();
// By number ("3") or name; null if there is none.
const Lesson* find_lesson(const std::string& number_or_name);

// What the lesson needs that `servers` does not give: "" when nothing, else one line naming the
// options and how to start the servers (scripts/servers up ...).
std::string missing_servers(const Lesson& lesson, const LessonServers& servers);

// The kind of server a placeholder names, or null.
const LessonServerKind* server_kind(std::string_view placeholder);
// Whether the teacher gave the server of that placeholder.
bool is_given(const LessonServers& servers, std::string_view placeholder);
// A server the step names that the teacher did not give (the step is then left out), or null.
const LessonServerKind* absent_server(const LessonStep& step, const LessonServers& servers);

// How to run it: "idemlab lesson N", with the options of the servers its steps name
// ("--primary URL --standby URL").
std::string lesson_invocation(const Lesson& lesson);

// Runs a lesson's steps with `binary` in a fresh scratch folder, printing the narration, each
// command and its output. Fails (kInternal) if a step exits other than the lesson says.
Status run_lesson(const Lesson& lesson, const std::string& binary, const LessonServers& servers);

}  // namespace idemlab
