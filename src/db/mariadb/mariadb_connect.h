// Opening a MariaDB connection: mysql_real_connect_start and _cont, each wait on the socket
// bounded by connect_timeout and stopped by a signal (mysql_real_connect's own read of the
// greeting waits out the whole timeout whatever signal comes); and how long an answer may take.
#pragma once

#include <mysql.h>

#include "core/status.h"
#include "db/backend.h"
#include "db/locator.h"
#include "db/mariadb/libmariadb.h"

namespace idemlab {

// nullptr in `connected` when the server refused (the caller reads why); a Status for a wait
// that ran out or a signal.
Status connect_within(const LibMariadb& my, MYSQL* conn, const Locator& locator, const char* socket,
                      MYSQL** connected);

// Each statement's answer may take the lock wait's own limit, and connect_timeout beyond it.
void set_timeouts(const LibMariadb& my, MYSQL* conn, const Locator& locator,
                  const ConnectionOptions& options);

}  // namespace idemlab
