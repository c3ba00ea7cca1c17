// Child processes for lessons: posix_spawn with the output to a pipe (one command) or to a file
// per twin (twins, which run at once and must not block on each other's pipes).
#include "lessons/child.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "lessons/lesson.h"

namespace idemlab {

namespace {

// A bound, not a timing assumption: a twin that hangs must not hang the lesson; the gate's own
// cap lets a waiting twin go on by itself after as long.
constexpr auto kGateBound = std::chrono::seconds(60);
// A step's bound: one that hangs (a server that never answers) fails the lesson naming the
// step, with what it printed, instead of hanging the class. No step of a lesson comes near it.
constexpr auto kStepBound = std::chrono::seconds(120);

int exit_code_of(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A child starts with SIGPIPE's default disposition: this process ignores it (main.cpp), and an
// ignored signal stays ignored across exec.
const posix_spawnattr_t& default_signals() {
  static const posix_spawnattr_t attributes = [] {
    posix_spawnattr_t made;
    posix_spawnattr_init(&made);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&made, &defaults);
    posix_spawnattr_setflags(&made, POSIX_SPAWN_SETSIGDEF);
    return made;
  }();
  return attributes;
}

// The environment a step runs in: this one without the variables that choose a server
// (IDEMLAB_DB, IDEMLAB_REDIS, ...). A lesson names every server it uses, so it runs alike
// whatever the teacher's shell exports.
char** lesson_environment() {
  static std::vector<char*> kept = [] {
    std::vector<char*> out;
    constexpr std::string_view kChoosers[] = {
        "IDEMLAB_DB=", "IDEMLAB_REDIS=", "IDEMLAB_LOCKS=", "IDEMLAB_READ_DB=", "IDEMLAB_BROKER="};
    for (char** entry = environ; *entry; ++entry) {
      const std::string_view variable(*entry);
      if (std::none_of(std::begin(kChoosers), std::end(kChoosers),
                       [&](std::string_view name) { return variable.rfind(name, 0) == 0; }))
        out.push_back(*entry);
    }
    out.push_back(nullptr);
    return out;
  }();
  return kept.data();
}

std::vector<char*> argv_of(const std::string& binary, const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>(binary.c_str())};
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  return argv;
}

// Starts one twin with its output in `output_path`.
Status spawn_twin(const std::string& binary, const std::string& folder,
                  const std::vector<std::string>& args, const std::string& output_path,
                  pid_t* child) {
  std::vector<char*> argv = argv_of(binary, args);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());
  const int failed = ::posix_spawn(child, binary.c_str(), &actions, &default_signals(), argv.data(),
                                   lesson_environment());
  posix_spawn_file_actions_destroy(&actions);
  return failed == 0 ? Status::ok() : Status::internal(fmt::format("cannot run {}", binary));
}

std::string contents(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

bool arrived(const std::string& gate, pid_t child) {
  struct stat info {};
  return ::stat(fmt::format("{}/arrived.{}", gate, child).c_str(), &info) == 0;
}

// Waits until each twin has arrived at the gate or ended (reaping those that ended).
void until_all_arrived(const std::string& gate, const std::vector<pid_t>& children,
                       std::vector<Ran>* out) {
  const auto deadline = std::chrono::steady_clock::now() + kGateBound;
  while (std::chrono::steady_clock::now() < deadline) {
    size_t ready = 0;
    for (size_t i = 0; i < children.size(); ++i) {
      int status = 0;
      if ((*out)[i].exit_code < 0 && ::waitpid(children[i], &status, WNOHANG) == children[i])
        (*out)[i].exit_code = exit_code_of(status);
      if ((*out)[i].exit_code >= 0 || arrived(gate, children[i])) ++ready;
    }
    if (ready == children.size()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Waits for `child` until `deadline`; past it, kills it and answers false.
bool wait_until(pid_t child, std::chrono::steady_clock::time_point deadline, int* status) {
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(child, status, WNOHANG) == child) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, status, 0);
  return false;
}

// Reads `fd` to its end or until `deadline`, whichever comes first.
void read_until(int fd, std::chrono::steady_clock::time_point deadline, std::string* out) {
  char buffer[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return;
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(std::min<int64_t>(left.count(), 100))) <= 0) continue;
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) return;
    out->append(buffer, static_cast<size_t>(got));
  }
}

Status overran(const std::string& binary, const std::string& output) {
  return Status::internal(fmt::format("{} did not end within {} s; it printed: {}", binary,
                                      kStepBound.count(), output));
}

}  // namespace

Status run_command(const std::string& binary, const std::string& folder,
                   const std::vector<std::string>& args, Ran* out) {
  std::vector<char*> argv = argv_of(binary, args);
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return Status::internal("cannot create a pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());
  pid_t child = 0;
  const int failed = ::posix_spawn(&child, binary.c_str(), &actions, &default_signals(),
                                   argv.data(), lesson_environment());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (failed != 0) {
    ::close(pipe_fds[0]);
    return Status::internal(fmt::format("cannot run {}", binary));
  }
  const auto deadline = std::chrono::steady_clock::now() + kStepBound;
  read_until(pipe_fds[0], deadline, &out->output);
  ::close(pipe_fds[0]);
  int status = 0;
  if (!wait_until(child, deadline, &status)) return overran(binary, out->output);
  out->exit_code = exit_code_of(status);
  return Status::ok();
}

Status run_twins(const std::string& binary, const std::string& folder,
                 const std::vector<std::string>& args, int count, std::vector<Ran>* out) {
  const std::string gate = folder + "/gate";
  std::filesystem::remove_all(gate);
  std::filesystem::create_directory(gate);
  out->assign(static_cast<size_t>(count), Ran{});
  std::vector<pid_t> children;
  for (int i = 0; i < count; ++i) {
    pid_t child = 0;
    std::vector<std::string> copy = args;  // "{copy}": this one's number, from 1
    for (std::string& arg : copy)
      if (const size_t at = arg.find(kCopyPlaceholder); at != std::string::npos)
        arg.replace(at, kCopyPlaceholder.size(), std::to_string(i + 1));
    Status started = spawn_twin(binary, folder, copy, fmt::format("{}/twin.{}", folder, i), &child);
    if (!started.is_ok()) {
      for (pid_t other : children) ::kill(other, SIGKILL);
      for (pid_t other : children) ::waitpid(other, nullptr, 0);
      return started;
    }
    children.push_back(child);
  }
  until_all_arrived(gate, children, out);
  std::ofstream(gate + "/open").close();
  const auto deadline = std::chrono::steady_clock::now() + kStepBound;
  bool ended = true;
  for (size_t i = 0; i < children.size(); ++i) {
    int status = 0;
    if ((*out)[i].exit_code < 0) {
      ended = wait_until(children[i], deadline, &status) && ended;
      (*out)[i].exit_code = exit_code_of(status);
    }
    (*out)[i].output = contents(fmt::format("{}/twin.{}", folder, i));
  }
  return ended ? Status::ok() : overran("a twin", (*out)[0].output);
}

std::string program_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream folders(path ? path : "/usr/bin:/bin");
  for (std::string folder; std::getline(folders, folder, ':');) {
    const std::string candidate = folder + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

Status start_background(const std::string& binary, const std::string& folder,
                        const std::vector<std::string>& args, Background* out) {
  out->output_path = folder + "/background.out";
  pid_t child = -1;
  RETURN_IF_ERROR(spawn_twin(binary, folder, args, out->output_path, &child));
  out->pid = child;
  return Status::ok();
}

Status wait_for_line(const Background& server, const std::string& prefix, std::string* line) {
  const auto deadline = std::chrono::steady_clock::now() + kGateBound;
  while (std::chrono::steady_clock::now() < deadline) {
    std::stringstream output(contents(server.output_path));
    for (std::string read; std::getline(output, read);)
      if (read.starts_with(prefix)) {
        *line = read;
        return Status::ok();
      }
    int status = 0;
    if (::waitpid(server.pid, &status, WNOHANG) == server.pid)
      return Status::internal("the server ended: " + contents(server.output_path));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return Status::internal("the server never said '" + prefix + "'");
}

Status start_held(const std::string& binary, const std::string& folder,
                  const std::vector<std::string>& args, Background* out) {
  const std::string gate = folder + "/gate";
  std::filesystem::remove_all(gate);
  std::filesystem::create_directory(gate);
  out->output_path = folder + "/held.out";
  pid_t child = -1;
  RETURN_IF_ERROR(spawn_twin(binary, folder, args, out->output_path, &child));
  out->pid = child;
  std::vector<Ran> state(1);
  until_all_arrived(gate, {child}, &state);
  if (state[0].exit_code >= 0) {
    out->pid = -1;
    return Status::internal(fmt::format("it ended (exit {}) before the gate: {}",
                                        state[0].exit_code, contents(out->output_path)));
  }
  if (!arrived(gate, child)) return Status::internal("it never arrived at the gate");
  return Status::ok();
}

Status release_held(const std::string& folder, Background* held, Ran* out) {
  if (held->pid <= 0) return Status::internal("no command is held at the gate");
  std::ofstream(folder + "/gate/open").close();
  int status = 0;
  const bool ended = wait_until(held->pid, std::chrono::steady_clock::now() + kStepBound, &status);
  held->pid = -1;
  out->exit_code = exit_code_of(status);
  out->output = contents(held->output_path);
  return ended ? Status::ok() : overran("the held command", out->output);
}

void stop_background(Background* server, int signal) {
  if (server->pid <= 0) return;
  ::kill(server->pid, signal);
  int status = 0;
  ::waitpid(server->pid, &status, 0);
  server->pid = -1;
}

}  // namespace idemlab
