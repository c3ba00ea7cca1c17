// Stopping the process, continued by a forked helper.
#include "attempt/process_stop.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <ctime>

namespace idemlab {

namespace {

// The helper, after fork(): only async-signal-safe calls (a threaded parent's locks may be
// held by threads that do not exist here). Waits, then continues its parent.
[[noreturn]] void continue_parent_later(pid_t parent, int64_t ms, const char* open) {
  const timespec tick{0, 1'000'000};  // 1 ms
  struct stat info {};
  for (int64_t waited = 0; waited < ms; ++waited) {
    if (open && ::stat(open, &info) == 0) break;
    ::nanosleep(&tick, nullptr);
  }
  ::kill(parent, SIGCONT);
  ::_exit(0);
}

}  // namespace

void stop_process(int64_t ms, const std::string& gate) {
  const std::string open = gate.empty() ? "" : gate + "/open";
  if (!gate.empty()) {
    const std::string arrived = gate + "/arrived." + std::to_string(::getpid());
    if (std::FILE* file = std::fopen(arrived.c_str(), "w")) std::fclose(file);
  }
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  const pid_t helper = ::fork();
  if (helper == 0) continue_parent_later(parent, ms, open.empty() ? nullptr : open.c_str());
  if (helper < 0) return;  // no helper, no stop: the attempt goes on
  ::raise(SIGSTOP);
  int status = 0;
  (void)::waitpid(helper, &status, 0);
}

}  // namespace idemlab
