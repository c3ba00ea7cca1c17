// Ledger files: create one from the embedded schema, and open one after checking it really is
// an idemlab ledger this build understands.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "db/connection.h"

namespace idemlab {

extern const char* const kSchemaSql;  // schema.sql, embedded by CMake

constexpr int kSchemaVersion = 8;
constexpr int kApplicationId = 1768187245;  // "idem"

struct OpeningBalance {
  std::string account;
  int64_t amount_minor = 0;
};

// Creates a ledger where `db` says (--db: a file path or a server URL). Refuses an existing file
// unless `force`; the new ledger is built beside it and moved into place, so a failure leaves
// the old file as it was. On a server, see create_server_ledger().
Status create_ledger(const std::string& path, const std::vector<OpeningBalance>& accounts,
                     bool force);

// Creates the schema and accounts on an already open, empty database (tests, explain, sim).
Status create_schema(Connection& connection, const std::vector<OpeningBalance>& accounts);

enum class Access { kRead, kWrite };

// Opens the ledger `db` names (a file path or a server URL) after checking it is one this build
// understands; `isolation` applies on servers only.
// `wait_in_process`: ConnectionOptions::wait_in_process (a server's pool of connections).
Result<Connection> open_ledger(const std::string& db, Access access, int busy_timeout_ms,
                               Isolation isolation = Isolation::kDefault,
                               bool wait_in_process = false);
// The same, for a URL already read (a deployment's member: db/deployment.h).
Result<Connection> open_ledger(const Locator& locator, Access access, int busy_timeout_ms,
                               Isolation isolation = Isolation::kDefault,
                               bool wait_in_process = false);

// Checks application_id and user_version of an open database; gives the schema version.
Result<int64_t> check_ledger(Connection& connection, const std::string& path);

}  // namespace idemlab
