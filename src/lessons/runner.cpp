// Running a lesson: each step is the real binary in a child process, in a scratch folder that
// is removed afterwards; its output is shown indented under the command.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <thread>
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
    if (line.empty() || visible_width(line) <= room) {  // an empty line gets no spaces
      out += (line.empty() ? "" : std::string(spaces, ' ') + line) + "\n";
      continue;
    }
    const std::string first = wrap(line, 0, room);
    const size_t cut = first.find('\n');
    out += std::string(spaces, ' ') + first.substr(0, cut + 1);
    out += wrap(line.substr(std::min(line.size(), cut + 1)), spaces + 2);
  }
  return out;
}

// $QUEUE, $TOKEN: a value the runner names.
bool is_variable(const std::string& arg) {
  return arg.size() > 1 && arg[0] == '$' && std::all_of(arg.begin() + 1, arg.end(), [](char c) {
           return (c >= 'A' && c <= 'Z') || c == '_';
         });
}

// An argument as a shell reads it back; a server's placeholder stays a variable the shell
// expands.
std::string lesson_word(const std::string& arg) {
  if (server_kind(placeholder_of(arg)) || is_variable(arg) ||
      arg.find(kBasePlaceholder) != std::string::npos)
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
    const LessonServerKind* kind = server_kind(placeholder_of(arg));
    if (!kind) {
      out->push_back(arg);
      continue;
    }
    const auto given = servers.find(kind->placeholder);
    if (given == servers.end() || given->second.empty()) return false;
    out->push_back(given->second + arg.substr(kind->placeholder.size()));
  }
  return true;
}

// The child's output with each server's URL (as idemlab shows it, password hidden) back in its
// placeholder: shorter, the same bytes on every machine, and no user name or socket path. The
// longest first, so that a URL that begins another is not taken for it.
std::string with_placeholders(std::string output, const LessonServers& servers) {
  std::vector<std::pair<std::string, std::string>> shown;
  for (const auto& [placeholder, url] : servers)
    if (!url.empty()) shown.emplace_back(redact_locator(url), placeholder);
  std::sort(shown.begin(), shown.end(),
            [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (const auto& [url, placeholder] : shown)
    for (size_t at = 0; (at = output.find(url, at)) != std::string::npos;) {
      output.replace(at, url.size(), placeholder);
      at += placeholder.size();
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
  // Values a step's args name and its output shows by name: $BASE (where serve listens),
  // $QUEUE (the lesson's queue on the broker: idemlab-lesson-PID) and what steps captured.
  std::vector<std::pair<std::string, std::string>> named;
  Background held;                      // a command waiting at the gate for a step that releases it
  std::map<std::string, int> left_out;  // steps left out, by the option of the server not given
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
  const std::string base = line.substr(start, line.find(' ', start) - start);
  run.named.emplace_back(kBasePlaceholder, base);
  fmt::print("{}\n", indented(replaced(line, base, kBasePlaceholder), child_indent()));
  return Status::ok();
}

// The output with each named value, and each server's URL, shown by its name.
std::string with_names(std::string output, const LessonRun& run) {
  output = with_placeholders(std::move(output), run.servers);
  for (const auto& [name, value] : run.named) output = replaced(output, value, name);
  return output;
}

// A step that captures: `NAME=$(command)`. Its output, without the last newline, is kept.
Status capture(const LessonStep& step, LessonRun& run, const Ran& ran) {
  std::string value = ran.output;
  if (!value.empty() && value.back() == '\n') value.pop_back();
  if (ran.exit_code != step.expect_exit || value.empty() || value.find('\n') != std::string::npos)
    return Status::internal(fmt::format("'{}' exited {} with '{}', not one value for {}",
                                        command_line(step.args), ran.exit_code, value,
                                        step.capture));
  run.named.emplace_back(step.capture, value);
  fmt::print("\n");
  return Status::ok();
}

// The step's command as the lesson shows it.
std::string shown_command(const LessonStep& step) {
  if (step.release) return "touch gate/open; wait";
  const std::string command = command_line(step.args, step.program);
  if (!step.capture.empty()) return step.capture.substr(1) + "=$(" + command + ")";
  if (step.hold) return command + " &";
  if (step.again_while != 0)
    return fmt::format("until {}; [ $? -ne {} ]; do sleep 0.05; done", command, step.again_while);
  return command;
}

// Runs the command, again while it exits step.again_while (bounded), or releases the held one.
Status run_command_of(const LessonStep& step, LessonRun& run, const std::string& binary,
                      const std::vector<std::string>& args, Ran* ran) {
  if (step.release) return release_held(run.folder, &run.held, ran);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  for (;;) {
    *ran = Ran{};
    RETURN_IF_ERROR(run_command(binary, run.folder, args, ran));
    if (step.again_while == 0 || ran->exit_code != step.again_while ||
        std::chrono::steady_clock::now() >= deadline)
      return Status::ok();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// The binary a step runs, and its arguments with the servers and named values in place.
Status prepare(const LessonStep& step, const LessonRun& run, std::string* binary,
               std::vector<std::string>* args) {
  if (!with_servers(step.args, run.servers, args))  // missing_servers() was asked first
    return Status::internal("a step needs a server the lesson was not given");
  for (std::string& arg : *args)
    for (const auto& [name, value] : run.named) arg = replaced(arg, name, value);
  *binary = run.binary;
  if (!step.program.empty()) {
    *binary = program_path(step.program);
    if (binary->empty()) return Status::internal(step.program + " is not installed");
  } else if (step.capture.empty()) {
    // The child's output is shown indented: it is told to fit in what remains.
    args->push_back("--width");
    args->push_back(std::to_string(static_cast<size_t>(output_width()) - child_indent()));
  }
  return Status::ok();
}

Status run_step(const LessonStep& step, LessonRun& run) {
  if (!step.say.empty()) fmt::print("{}", wrap(step.say, 0));
  fmt::print("{}", command_text("$ " + shown_command(step), 2));
  if (step.twins > 0) fmt::print("    ({} copies at once)\n", step.twins);
  if (const LessonServerKind* absent = absent_server(step, run.servers)) {
    fmt::print("    (left out: no {} URL; scripts/servers up {} starts one)\n\n", absent->option,
               absent->up);
    ++run.left_out[std::string(absent->option)];
    return Status::ok();
  }
  std::string binary;
  std::vector<std::string> args;
  RETURN_IF_ERROR(prepare(step, run, &binary, &args));
  if (step.background) return start_serve(run, args);
  if (step.twins > 0) return run_twin_step(step, binary, run.folder, args, run.servers);
  if (step.hold) {
    fmt::print("    (waiting at the gate)\n\n");
    return start_held(binary, run.folder, args, &run.held);
  }
  Ran ran;
  RETURN_IF_ERROR(run_command_of(step, run, binary, args, &ran));
  if (!step.capture.empty()) return capture(step, run, ran);
  ran.output = with_names(std::move(ran.output), run);
  fmt::print("{}{}\n", indented(ran.output, child_indent()), exit_note(ran.exit_code));
  if (ran.exit_code == step.expect_exit) return Status::ok();
  return Status::internal(fmt::format("'{}' exited {}, the lesson expects {}", shown_command(step),
                                      ran.exit_code, step.expect_exit));
}

// Pasted, twins at a gate must all be waiting there (gate/arrived.PID) or have ended before the
// gate opens, as the lesson's own run makes sure: otherwise they may not overlap.
void print_twins_replay(const LessonStep& step) {
  fmt::print("  rm -rf gate; mkdir gate\n");
  std::vector<std::string> pids;
  for (int i = 0; i < step.twins; ++i) {
    const std::string copy = std::to_string(i + 1);
    fmt::print("{}",
               command_text(replaced(command_line(step.args), std::string(kCopyPlaceholder), copy) +
                                " & twin" + copy + "=$!",
                            2));
    pids.push_back("$twin" + copy);
  }
  fmt::print("  for t in {}; do  # until each waits at the gate, or gave up\n",
             fmt::join(pids, " "));
  fmt::print("    while [ ! -e gate/arrived.$t ] && kill -0 $t 2>/dev/null; do sleep 0.05; done\n");
  fmt::print("  done; touch gate/open; wait\n");
}

// The lesson's commands, to paste into a shell; twins as background jobs and their gate, a
// server in the background with $BASE set from its first line. The steps left out (a server not
// given) are left out here too.
void print_replay(const Lesson& lesson, const LessonServers& servers) {
  bool served = false;
  for (const LessonStep& step : lesson.steps) {
    if (absent_server(step, servers)) continue;
    if (step.background) {
      fmt::print("{}", command_text(command_line(step.args) + " >serve.out &", 2));
      fmt::print("  sleep 1; BASE=$(grep -o 'http://[^ ]*' serve.out)\n");
      served = true;
    } else if (step.hold) {
      fmt::print("  rm -rf gate; mkdir gate\n{}", command_text(shown_command(step), 2));
      fmt::print("  until ls gate/arrived.* >/dev/null 2>&1; do sleep 0.05; done\n");
    } else if (step.twins == 0) {
      fmt::print("{}", command_text(shown_command(step), 2));
    } else {
      print_twins_replay(step);
    }
  }
  if (served) fmt::print("  kill %1\n");
}

// "Left out: 6 steps with no --postgres URL." when steps were.
void print_left_out(const std::map<std::string, int>& left_out) {
  std::vector<std::string> parts;
  for (const auto& [option, steps] : left_out)
    parts.push_back(fmt::format("{} step{} with no {} URL", steps, steps == 1 ? "" : "s", option));
  if (!parts.empty())
    fmt::print("{}", wrap(fmt::format("Left out: {}.", fmt::join(parts, ", ")), 0));
}

}  // namespace

Status run_lesson(const Lesson& lesson, const std::string& binary, const LessonServers& servers) {
  std::string folder = (std::filesystem::temp_directory_path() / "idemlab-lesson-XXXXXX").string();
  if (!::mkdtemp(folder.data())) return Status::internal("cannot create a scratch folder");
  fmt::print("{}{}\n{}\n", wrap(fmt::format("Lesson {}: {}", lesson.number, lesson.title), 0),
             wrap("(" + lesson.reference + ")", 0), wrap(lesson.intro, 0));
  LessonRun run{binary, folder, servers, {}, {}, {}, {}};
  run.named.emplace_back(kQueuePlaceholder, fmt::format("idemlab-lesson-{}", ::getpid()));
  Status result = Status::ok();
  for (const LessonStep& step : lesson.steps) {
    result = run_step(step, run);
    if (!result.is_ok()) break;
  }
  stop_background(&run.served);
  stop_background(&run.held, SIGKILL);  // a held command may be stopped (the pause fault)
  std::filesystem::remove_all(folder);
  if (!result.is_ok())
    return Status::internal(fmt::format("lesson {}: {}", lesson.number, result.message()));
  fmt::print("{}\n", wrap("So: " + lesson.takeaway, 0));
  print_left_out(run.left_out);
  fmt::print("Run it again, in an empty folder:\n");
  print_replay(lesson, servers);
  return Status::ok();
}

}  // namespace idemlab
