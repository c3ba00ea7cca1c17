// Tests for core/interrupt: a signal cuts the waits in progress, except those begun under
// UncutWaits. Each case raises its signal in a child process: the flag it sets lasts for the
// process, and the other cases share this one.
#include <doctest/doctest.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <optional>

#include "core/interrupt.h"

using namespace idemlab;

namespace {

// In a child: a socket waited on (under UncutWaits if `uncut`), then SIGINT. Exits 1 if the
// socket was shut down (a read finds its end at once), 0 if it is still open (nothing to read
// yet), 2 if the flag was not set.
int child_after_signal(bool uncut) {
  const pid_t child = ::fork();
  if (child == 0) {
    install_interrupt_handlers();
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) ::_exit(3);
    {
      std::optional<UncutWaits> scope;
      if (uncut) scope.emplace();
      const WaitingSocket waiting(pair[0]);
      std::raise(SIGINT);
    }
    if (interrupt_signal() != SIGINT) ::_exit(2);
    char byte = 0;
    const ssize_t read = ::recv(pair[0], &byte, 1, MSG_DONTWAIT);
    ::_exit(read == 0 ? 1 : (read < 0 && errno == EAGAIN ? 0 : 4));
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("a signal shuts down the socket a wait is blocked on") {
  CHECK(child_after_signal(false) == 1);
}

TEST_CASE("under UncutWaits the same signal leaves the socket open, and the flag set") {
  CHECK(child_after_signal(true) == 0);
}
