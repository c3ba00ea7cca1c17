// Running a lesson: each step is the real binary in a child process, in a scratch folder that
// is removed afterwards; its output is shown indented under the command.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "db/locator.h"
#include "lessons/child.h"
#include "lessons/lesson.h"
#include "term/color.h"
#include "term/command_text.h"
#include "term/text.h"
#include "term/width.h"

namespace idemlab {

namespace {

// How far a child's output is indented under its command: 4, less on a terminal so narrow that
// the child, told to fit in what remains, would go below idemlab's narrowest width.
size_t child_indent() {
  return std::min<size_t>(4, static_cast<size_t>(output_width()) - kMinWidth);
}

// The child's output, indented; a line wider than what remains (an error line is one line by
// contract) is wrapped for the reader, its continuation indented two more.
std::string indented(const std::string& text, size_t spaces) {
  const size_t room = static_cast<size_t>(output_width()) - spaces;
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (visible_width(line) <= room) {
      out += std::string(spaces, ' ') + line + "\n";
      continue;
    }
    const std::string first = wrap(line, 0, room);
    const size_t cut = first.find('\n');
    out += std::string(spaces, ' ') + first.substr(0, cut + 1);
    out += wrap(line.substr(std::min(line.size(), cut + 1)), spaces + 2);
  }
  return out;
}

// An argument as a shell reads it back; a server's placeholder stays a variable the shell
// expands.
std::string lesson_word(const std::string& arg) {
  if (arg == kPostgresPlaceholder || arg == kMariadbPlaceholder || arg == kBrokerPlaceholder ||
      arg == kQueuePlaceholder || arg.find(kBasePlaceholder) != std::string::npos)
    return "\"" + arg + "\"";
  return shell_word(arg);
}

std::string command_line(const std::vector<std::string>& args, const std::string& program = "") {
  std::string out = program.empty() ? "idemlab" : program;
  for (const std::string& arg : args) out += " " + lesson_word(arg);
  return out;
}

// The step's arguments with the servers' URLs in place of their placeholders; false when a
// server it needs was not given.
bool with_servers(const std::vector<std::string>& args, const LessonServers& servers,
                  std::vector<std::string>* out) {
  for (const std::string& arg : args) {
    const std::string* url = arg == kPostgresPlaceholder  ? &servers.postgres
                             : arg == kMariadbPlaceholder ? &servers.mariadb
                             : arg == kBrokerPlaceholder  ? &servers.broker
                                                          : nullptr;
    if (url && url->empty()) return false;
    out->push_back(url ? *url : arg);
  }
  return true;
}

// The child's output with each server's URL (as idemlab shows it, password hidden) back in its
// placeholder: shorter, the same bytes on every machine, and no user name or socket path.
std::string with_placeholders(std::string output, const LessonServers& servers) {
  for (const auto& [url, placeholder] : {std::pair{&servers.postgres, kPostgresPlaceholder},
                                         std::pair{&servers.mariadb, kMariadbPlaceholder},
                                         std::pair{&servers.broker, kBrokerPlaceholder}}) {
    if (url->empty()) continue;
    const std::string shown = redact_locator(*url);
    for (size_t at = 0; (at = output.find(shown, at)) != std::string::npos;) {
      output.replace(at, shown.size(), placeholder);
      at += placeholder.size();
    }
  }
  return output;
}

std::string exit_note(int exit_code) {
  return exit_code == 0 ? "" : fmt::format("    (exit {})\n", exit_code);
}

// Runs a step's twins; their outputs are shown sorted, so that the same outcome prints the same
// bytes whichever twin won. Checks their exits against the step's.
Status run_twin_step(const LessonStep& step, const std::string& binary, const std::string& folder,
                     const std::vector<std::string>& args, const LessonServers& servers) {
  std::vector<Ran> twins;
  RETURN_IF_ERROR(run_twins(binary, folder, args, step.twins, &twins));
  for (Ran& twin : twins) twin.output = with_placeholders(std::move(twin.output), servers);
  std::sort(twins.begin(), twins.end(), [](const Ran& a, const Ran& b) {
    return std::tie(a.exit_code, a.output) < std::tie(b.exit_code, b.output);
  });
  std::vector<int> exits;
  for (const Ran& twin : twins) {
    fmt::print("  twin:\n{}{}", indented(twin.output, child_indent()), exit_note(twin.exit_code));
    exits.push_back(twin.exit_code);
  }
  fmt::print("\n");
  if (exits == step.twin_exits) return Status::ok();
  return Status::internal(fmt::format("'{}' twins exited {}, the lesson expects {}",
                                      command_line(step.args), fmt::join(exits, ","),
                                      fmt::join(step.twin_exits, ",")));
}

// What the steps of one lesson share: where they run, the servers given, and the server a step
// started in the background.
struct LessonRun {
  std::string binary;
  std::string folder;
  LessonServers servers;
  Background served;
  std::string base;   // where it listens: http://127.0.0.1:PORT
  std::string queue;  // the lesson's queue on the broker: idemlab-lesson-PID
};

std::string replaced(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) return text;
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

// Starts `idemlab serve` and shows its first line, with where it listens as $BASE.
Status start_serve(LessonRun& run, const std::vector<std::string>& args) {
  RETURN_IF_ERROR(start_background(run.binary, run.folder, args, &run.served));
  std::string line;
  RETURN_IF_ERROR(wait_for_line(run.served, "listening on ", &line));
  const size_t start = line.find("http://");
  run.base = line.substr(start, line.find(' ', start) - start);
  fmt::print("{}\n", indented(replaced(line, run.base, kBasePlaceholder), child_indent()));
  return Status::ok();
}

Status run_step(const LessonStep& step, LessonRun& run) {
  std::vector<std::string> args;
  const bool runs = with_servers(step.args, run.servers, &args);
  for (std::string& arg : args)
    arg = replaced(replaced(arg, kBasePlaceholder, run.base), kQueuePlaceholder, run.queue);
  if (!step.say.empty()) fmt::print("{}", wrap(step.say, 0));
  fmt::print("{}", command_text("$ " + command_line(step.args, step.program), 2));
  if (step.twins > 0) fmt::print("    ({} copies at once)\n", step.twins);
  if (!runs)  // missing_servers() was asked first: a lesson runs whole or not at all
    return Status::internal("a step needs a server the lesson was not given");
  if (step.background) return start_serve(run, args);
  std::string binary = run.binary;
  if (!step.program.empty()) {
    binary = program_path(step.program);
    if (binary.empty()) return Status::internal(step.program + " is not installed");
  } else {
    // The child's output is shown indented: it is told to fit in what remains.
    args.push_back("--width");
    args.push_back(std::to_string(static_cast<size_t>(output_width()) - child_indent()));
  }
  if (step.twins > 0) return run_twin_step(step, binary, run.folder, args, run.servers);
  Ran ran;
  RETURN_IF_ERROR(run_command(binary, run.folder, args, &ran));
  ran.output = replaced(
      replaced(with_placeholders(std::move(ran.output), run.servers), run.base, kBasePlaceholder),
      run.queue, kQueuePlaceholder);
  fmt::print("{}{}\n", indented(ran.output, child_indent()), exit_note(ran.exit_code));
  if (ran.exit_code == step.expect_exit) return Status::ok();
  return Status::internal(fmt::format("'{}' exited {}, the lesson expects {}",
                                      command_line(step.args, step.program), ran.exit_code,
                                      step.expect_exit));
}

// The lesson's commands, to paste into a shell; twins as background jobs and their gate, a
// server in the background with $BASE set from its first line.
void print_replay(const Lesson& lesson) {
  bool served = false;
  for (const LessonStep& step : lesson.steps) {
    if (step.background) {
      fmt::print("{}", command_text(command_line(step.args) + " >serve.out &", 2));
      fmt::print("  sleep 1; BASE=$(grep -o 'http://[^ ]*' serve.out)\n");
      served = true;
    } else if (step.twins == 0) {
      fmt::print("{}", command_text(command_line(step.args, step.program), 2));
    } else {
      fmt::print("  rm -rf gate; mkdir gate\n");
      for (int i = 0; i < step.twins; ++i)
        fmt::print("{}", command_text(command_line(step.args) + " &", 2));
      fmt::print("  touch gate/open; wait   # once each waits at the gate, or gave up\n");
    }
  }
  if (served) fmt::print("  kill %1\n");
}

}  // namespace

std::string missing_servers(const Lesson& lesson, const LessonServers& servers) {
  bool postgres = false, mariadb = false, broker = false;
  for (const LessonStep& step : lesson.steps)
    for (const std::string& arg : step.args) {
      postgres |= arg == kPostgresPlaceholder && servers.postgres.empty();
      mariadb |= arg == kMariadbPlaceholder && servers.mariadb.empty();
      broker |= arg == kBrokerPlaceholder && servers.broker.empty();
    }
  if (!postgres && !mariadb && !broker) return "";
  std::vector<std::string> options, names;
  if (postgres) options.push_back("--postgres URL"), names.push_back("postgres");
  if (mariadb) options.push_back("--mariadb URL"), names.push_back("mariadb");
  if (broker) options.push_back("--broker URL"), names.push_back("rabbitmq");
  std::string given;
  if (postgres) given += " --postgres \"$IDEMLAB_TEST_POSTGRES\"";
  if (mariadb) given += " --mariadb \"$IDEMLAB_TEST_MARIADB\"";
  if (broker) given += " --broker \"$IDEMLAB_BROKER\"";
  return fmt::format(
      "lesson {} needs {}: scripts/servers up {}; eval \"$(scripts/servers env)\"; idemlab "
      "lesson {}{}",
      lesson.number, fmt::join(options, " and "), fmt::join(names, " "), lesson.number, given);
}

Status run_lesson(const Lesson& lesson, const std::string& binary, const LessonServers& servers) {
  std::string folder = (std::filesystem::temp_directory_path() / "idemlab-lesson-XXXXXX").string();
  if (!::mkdtemp(folder.data())) return Status::internal("cannot create a scratch folder");
  fmt::print("{}{}\n{}\n", wrap(fmt::format("Lesson {}: {}", lesson.number, lesson.title), 0),
             wrap("(" + lesson.reference + ")", 0), wrap(lesson.intro, 0));
  LessonRun run{binary, folder, servers, {}, "", fmt::format("idemlab-lesson-{}", ::getpid())};
  Status result = Status::ok();
  for (const LessonStep& step : lesson.steps) {
    result = run_step(step, run);
    if (!result.is_ok()) break;
  }
  stop_background(&run.served);
  std::filesystem::remove_all(folder);
  if (!result.is_ok())
    return Status::internal(fmt::format("lesson {}: {}", lesson.number, result.message()));
  fmt::print("{}\nRun it again, in an empty folder:\n", wrap("So: " + lesson.takeaway, 0));
  print_replay(lesson);
  return Status::ok();
}

}  // namespace idemlab
