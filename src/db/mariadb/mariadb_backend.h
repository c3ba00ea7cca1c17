// MariaDB: a ledger in a MariaDB (or MySQL) database, through libmariadb (loaded on demand).
#pragma once

#include <memory>

#include "db/backend.h"
#include "db/locator.h"

namespace idemlab {

// Connects as `locator` says (socket=/path for a unix socket; ~/.my.cnf's [client] applies
// when the URL has no password), with CLIENT_FOUND_ROWS so that an UPDATE counts the rows it
// matched, as SQLite and PostgreSQL do, at options.isolation, and with
// options.busy_timeout_ms (in whole seconds, at least 1) as innodb_lock_wait_timeout.
Result<std::unique_ptr<Backend>> open_mariadb(const Locator& locator,
                                              const ConnectionOptions& options);

// What a MariaDB error number means to a strategy (1062 a repeat, 1020 and 1213 retry, 1205 in
// progress, 2006 and 2013 a lost connection). By number: MariaDB reports SQLSTATE 40001 for a
// deadlock too.
StepCode mariadb_step_code(unsigned error_number);

// Whether SHOW ENGINE INNODB STATUS's text shows thread `thread`'s transaction waiting for a
// lock (its block holds "LOCK WAIT").
bool innodb_status_shows_lock_wait(std::string_view status, int64_t thread);

// Whether the statement's one returned column is its count of rows changed (mariadb_statements).
bool mariadb_counts_in_column(Stmt id);

// MariaDB's text where its dialect differs from SQLite's, else SQLite's.
std::string_view mariadb_statement_sql(Stmt id);

}  // namespace idemlab
