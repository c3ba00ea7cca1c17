// `idemlab lesson [N|NAME]` and `idemlab lesson --list`: the lessons, run for real.
#include <fmt/format.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "db/locator.h"
#include "lessons/lesson.h"
#include "lessons/references.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct LessonOptions {
  std::string lesson;
  bool list = false;
  LessonServers servers;
  bool json = false;
};

// A server a lesson runs on must be a URL of the kind its option names: a ledger's URL as a
// ledger's, any other by its scheme.
void check_server(const LessonServers& servers, const LessonServerKind& kind) {
  const auto given = servers.find(kind.placeholder);
  if (given == servers.end() || given->second.empty()) return;
  if (is_ledger_scheme(kind.scheme)) {
    Locator locator;
    throw_if_error(parse_locator_of(given->second, kind.scheme, kind.option, &locator));
  } else if (given->second.rfind(std::string(kind.scheme) + "://", 0) != 0) {
    throw_if_error(Status::usage(
        fmt::format("{} takes a {}:// URL, not '{}'", kind.option, kind.scheme, given->second)));
  }
}

ExitCode list_lessons(bool json) {
  if (json) {
    nlohmann::ordered_json out{{"lessons", nlohmann::ordered_json::array()}};
    for (const Lesson& lesson : all_lessons())
      out["lessons"].push_back({{"number", lesson.number},
                                {"name", lesson.name},
                                {"title", lesson.title},
                                {"reference", lesson.reference}});
    for (const Reference& ref : references())
      out["references"].push_back({{"number", ref.number},
                                   {"title", ref.title},
                                   {"english", ref.english},
                                   {"author", ref.author},
                                   {"where", ref.where},
                                   {"url", ref.url}});
    print_json(out);
    return ExitCode::kOk;
  }
  TextTable table{{"", "lesson", "what it shows"}, {true}, {}};
  for (const Lesson& lesson : all_lessons())
    table.rows.push_back({std::to_string(lesson.number), lesson.name, lesson.title});
  fmt::print("{}\n{}", table.render(),
             wrap("idemlab lesson N (or NAME) runs one: real commands on a scratch ledger or "
                  "the seeded simulator, with what to watch.",
                  0));
  fmt::print("\nThe references (000 to 004, cited with their sections):\n");
  for (const Reference& ref : references())
    fmt::print("  {}  {}", ref.number, wrap(reference_text(ref), 7).substr(7));
  return ExitCode::kOk;
}

// The running binary, so a lesson runs the very idemlab the teacher typed.
std::string own_binary() {
  char path[4096];
  const ssize_t size = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (size <= 0) throw_if_error(Status::internal("cannot find the idemlab binary"));
  return std::string(path, static_cast<size_t>(size));
}

ExitCode run_lesson_command(const LessonOptions& options) {
  if (options.list || options.lesson.empty()) return list_lessons(options.json);
  const Lesson* lesson = find_lesson(options.lesson);
  if (!lesson)
    throw_if_error(Status::usage(
        fmt::format("no lesson '{}' (idemlab lesson --list shows them)", options.lesson)));
  // Only the servers this lesson names: $IDEMLAB_BROKER may name a broker of another scheme.
  for (const LessonServerKind* kind : servers_named(*lesson)) check_server(options.servers, *kind);
  if (const std::string missing = missing_servers(*lesson, options.servers); !missing.empty()) {
    if (options.json) print_json({{"lesson", lesson->number}, {"ran", false}, {"needs", missing}});
    fmt::print(stderr, "{}\n", missing);
    return ExitCode::kNotRun;
  }
  std::fflush(stdout);
  throw_if_error(run_lesson(*lesson, own_binary(), options.servers));
  return ExitCode::kOk;
}

}  // namespace

void register_lesson(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<LessonOptions>();
  CLI::App* command =
      app.add_subcommand("lesson", "numbered lessons that follow the references, run for real");
  command->add_option("lesson", options->lesson, "a lesson's number or name");
  command->add_flag("--list", options->list, "list the lessons");
  for (const LessonServerKind& kind : lesson_server_kinds()) {
    CLI::Option* option = command->add_option(
        std::string(kind.option), options->servers[std::string(kind.placeholder)],
        fmt::format("{} ({} in the steps)", kind.help, kind.placeholder));
    if (kind.placeholder == kBrokerPlaceholder) option->envname("IDEMLAB_BROKER");
  }
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_lesson_command(*options); });
}

}  // namespace idemlab
