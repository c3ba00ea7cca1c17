// PostgreSQL: a ledger in a PostgreSQL database, through libpq (loaded on demand).
#pragma once

#include <memory>

#include "db/backend.h"
#include "db/locator.h"

namespace idemlab {

// Connects as `locator` says (host=/dir for a unix socket; PGPASSWORD and ~/.pgpass apply when
// the URL has no password), at options.isolation, with options.busy_timeout_ms as the lock
// wait limit (lock_timeout). An unreachable server or refused login is a ledger error.
Result<std::unique_ptr<Backend>> open_postgres(const Locator& locator,
                                               const ConnectionOptions& options);

// What PostgreSQL's SQLSTATE means to a strategy (23505 a repeat, 40001 and 40P01 retry, 55P03
// in progress); `connection_ok` false: the connection broke.
StepCode postgres_step_code(std::string_view sqlstate, bool connection_ok);
// Whether an error libpq raised itself (no SQLSTATE) says the connection's socket is gone.
bool client_says_link_gone(std::string_view message);

// PostgreSQL's text where its dialect differs from SQLite's, else SQLite's.
std::string_view postgres_statement_sql(Stmt id);

}  // namespace idemlab
