// Running a lesson: each step is the real binary in a child process, in a scratch folder that
// is removed afterwards; its output is shown indented under the command.
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "lessons/lesson.h"
#include "report/color.h"
#include "report/text.h"
#include "report/width.h"

namespace idemlab {

namespace {

struct Ran {
  int exit_code = -1;
  std::string output;  // stdout and stderr, interleaved as written
};

Status run_command(const std::string& binary, const std::string& folder,
                   const std::vector<std::string>& args, Ran* out) {
  std::vector<char*> argv{const_cast<char*>(binary.c_str())};
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return Status::internal("cannot create a pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());
  pid_t child = 0;
  const int failed = ::posix_spawn(&child, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (failed != 0) {
    ::close(pipe_fds[0]);
    return Status::internal(fmt::format("cannot run {}", binary));
  }
  char buffer[4096];
  for (ssize_t got; (got = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;)
    out->output.append(buffer, static_cast<size_t>(got));
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  out->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return Status::ok();
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

// An argument as a shell reads it back: quoted when it holds anything but plain characters.
std::string shell_word(const std::string& arg) {
  const bool plain = !arg.empty() && arg.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_./:=,@%+-") == std::string::npos;
  return plain ? arg : "'" + arg + "'";
}

std::string command_line(const std::vector<std::string>& args) {
  std::string out = "idemlab";
  for (const std::string& arg : args) out += " " + shell_word(arg);
  return out;
}

// A command that fits stays on one line; a longer one breaks between words with a trailing
// backslash, so that it still pastes into a shell as one command.
std::string wrap_command(const std::string& command, size_t indent) {
  const size_t width = static_cast<size_t>(output_width());
  std::string out;
  std::string current(indent, ' ');
  size_t fresh = indent;  // where the words of the current line start
  for (size_t start = 0; start < command.size();) {
    const size_t end = std::min(command.find(' ', start), command.size());
    const std::string word = command.substr(start, end - start);
    start = end + 1;
    if (current.size() > fresh && current.size() + 1 + word.size() + 2 > width) {
      out += current + " \\\n";
      fresh = indent + 4;
      current.assign(fresh, ' ');
    }
    if (current.size() > fresh) current += ' ';
    current += word;
  }
  return out + current + "\n";
}

}  // namespace

Status run_lesson(const Lesson& lesson, const std::string& binary) {
  std::string folder = (std::filesystem::temp_directory_path() / "idemlab-lesson-XXXXXX").string();
  if (!::mkdtemp(folder.data())) return Status::internal("cannot create a scratch folder");
  fmt::print("{}{}\n{}\n", wrap(fmt::format("Lesson {}: {}", lesson.number, lesson.title), 0),
             wrap("(" + lesson.reference + ")", 0), wrap(lesson.intro, 0));
  Status result = Status::ok();
  for (const LessonStep& step : lesson.steps) {
    if (!step.say.empty()) fmt::print("{}", wrap(step.say, 0));
    fmt::print("{}", wrap_command("$ " + command_line(step.args), 2));
    // The child's output is shown indented by 4: it is told to fit in what remains.
    std::vector<std::string> args = step.args;
    args.push_back("--width");
    args.push_back(std::to_string(std::max(kMinWidth, output_width() - 4)));
    Ran ran;
    result = run_command(binary, folder, args, &ran);
    if (!result.is_ok()) break;
    fmt::print("{}{}\n", indented(ran.output, 4),
               ran.exit_code == 0 ? "" : fmt::format("    (exit {})\n", ran.exit_code));
    if (ran.exit_code != step.expect_exit) {
      result = Status::internal(fmt::format("lesson {}: '{}' exited {}, the lesson expects {}",
                                            lesson.number, command_line(step.args), ran.exit_code,
                                            step.expect_exit));
      break;
    }
  }
  std::filesystem::remove_all(folder);
  if (!result.is_ok()) return result;
  fmt::print("{}\nRun it again, in an empty folder:\n", wrap("So: " + lesson.takeaway, 0));
  for (const LessonStep& step : lesson.steps)
    fmt::print("{}", wrap_command(command_line(step.args), 2));
  return Status::ok();
}

}  // namespace idemlab
