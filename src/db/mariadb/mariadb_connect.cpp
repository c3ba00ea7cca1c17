// Opening a MariaDB connection without blocking past connect_timeout, and the timeouts each
// answer gets.
#include "db/mariadb/mariadb_connect.h"

#include <poll.h>

#include <algorithm>

#include "core/interrupt.h"
#include "db/server/connect_wait.h"
#include "db/server/refused.h"
#include "db/server/socket_wait.h"

namespace idemlab {

namespace {

// The server waits for, as poll() events, and back.
short poll_events(int wait) {
  return static_cast<short>(((wait & MYSQL_WAIT_READ) ? POLLIN : 0) |
                            ((wait & MYSQL_WAIT_WRITE) ? POLLOUT : 0) |
                            ((wait & MYSQL_WAIT_EXCEPT) ? POLLPRI : 0));
}

}  // namespace

// mysql_real_connect_start and _cont, each wait on the socket bounded by connect_timeout and
// stopped by a signal (db/server/connect_wait.h): mysql_real_connect's own read of the greeting
// waits out the whole timeout whatever signal comes. nullptr in `connected` when the server
// refused (the caller reads why); a Status for a wait that ran out or a signal.
Status connect_within(const LibMariadb& my, MYSQL* conn, const Locator& locator, const char* socket,
                      MYSQL** connected) {
  const auto text_or_null = [](const std::string& text) {
    return text.empty() ? nullptr : text.c_str();
  };
  int wait = my.real_connect_start(connected, conn, text_or_null(locator.host),
                                   text_or_null(locator.user), text_or_null(locator.password),
                                   locator.database.c_str(), static_cast<unsigned>(locator.port),
                                   socket, CLIENT_FOUND_ROWS | CLIENT_MULTI_STATEMENTS);
  const auto deadline = deadline_after(locator.connect_timeout_s);
  while (wait != 0) {
    const SocketWait waited = wait_for_socket(my.get_socket(conn), poll_events(wait), deadline);
    if (waited == SocketWait::kInterrupted) return check_interrupt();
    if (waited == SocketWait::kTimedOut) return no_answer(locator.shown, locator.connect_timeout_s);
    wait = my.real_connect_cont(connected, conn, wait & ~MYSQL_WAIT_TIMEOUT);
  }
  return Status::ok();
}

// Each statement's answer may take the lock wait's own limit, and connect_timeout beyond it.
void set_timeouts(const LibMariadb& my, MYSQL* conn, const Locator& locator,
                  const ConnectionOptions& options) {
  const unsigned connect_s = static_cast<unsigned>(locator.connect_timeout_s);
  const unsigned answer_s =
      connect_s + static_cast<unsigned>(std::max(1, (options.busy_timeout_ms + 999) / 1000));
  my.options(conn, MYSQL_OPT_CONNECT_TIMEOUT, &connect_s);
  my.options(conn, MYSQL_OPT_READ_TIMEOUT, &answer_s);
  my.options(conn, MYSQL_OPT_WRITE_TIMEOUT, &answer_s);
}

}  // namespace idemlab
