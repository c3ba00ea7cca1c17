// Interrupts: SIGINT and SIGTERM ask a long run (simulate, compare, explore) to stop. The
// handler only sets a flag; the run polls it, unwinds so that its destructors remove every
// scratch file, and main() re-raises the signal so the shell sees the usual status (130, 143).
#pragma once

#include <cstdint>

#include "core/status.h"

namespace idemlab {

void install_interrupt_handlers();
// Every socket idemlab writes to (a database server, Redis, an HTTP client, a broker) can close
// under it. A write then fails with EPIPE, and the code that wrote answers a lost connection;
// no process of idemlab dies of SIGPIPE (hiredis writes with a plain write(), which raises it).
// main() calls this first; children started with posix_spawn get SIGPIPE's default back.
void ignore_broken_pipes();
// The signal that asked to stop, or 0.
int interrupt_signal();
// Whether a wait this thread is in should end now: a signal asked to stop, and no UncutWaits
// of this thread says to wait on (a connection opening for a clean-up).
bool waits_are_cut();
// Status::interrupted() if a signal asked to stop, else ok: poll it in every long loop.
Status check_interrupt();
// A socket a client library is about to block on (a statement's answer, a server's greeting).
// While one of these lives, SIGINT or SIGTERM also shuts its socket down (shutdown() is safe in
// a signal handler), so the library's blocked read returns at once and its caller, seeing the
// flag, stops: no wait on a server outlives the signal that asked to stop. Only the connection
// blocked then is lost; those a run's clean-up needs are not.
class WaitingSocket {
 public:
  explicit WaitingSocket(int fd);
  ~WaitingSocket();
  WaitingSocket(const WaitingSocket&) = delete;
  WaitingSocket& operator=(const WaitingSocket&) = delete;

 private:
  int slot_ = -1;
};

// While one lives, the waits this thread begins (a statement's answer, a connection opening)
// are not cut by a signal: for statements whose outcome a clean-up must know. A scratch ledger
// made or dropped on a server is one: a statement cut after the server took it runs on there
// without the run. Such waits stay bounded by the server's timeouts and connect_timeout, and
// the caller looks at the flag after them.
class UncutWaits {
 public:
  UncutWaits();
  ~UncutWaits();
  UncutWaits(const UncutWaits&) = delete;
  UncutWaits& operator=(const UncutWaits&) = delete;
};

// Sleeps `ms`, looking at the flag every 50 ms: false as soon as a signal asked to stop.
bool sleep_unless_interrupted(int64_t ms);

}  // namespace idemlab
