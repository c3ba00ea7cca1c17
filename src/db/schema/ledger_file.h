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

constexpr int kSchemaVersion = 7;
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

// Reads the file's header without SQLite: the magic string, a possible page size, the
// application id, and a size that holds every page the header counts. Cheap; run before any
// write, so that a truncated or foreign file is refused rather than written to.
// A main file shorter than its header says is not damage while the -wal file holds frames (the
// newest pages are there, e.g. after a checkpoint a full disk cut short): then the check leaves
// the size to SQLite, and says so in `size_left_to_sqlite`.
Status check_ledger_header(const std::string& path, bool* size_left_to_sqlite = nullptr);

// Checks application_id and user_version of an open database.
Status check_ledger(Connection& connection, const std::string& path);

}  // namespace idemlab
