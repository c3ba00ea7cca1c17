// ScratchLedger: the ledger a simulation, an exploration, bench_sim or a test runs on. It lives
// in this process's memory (db/sqlite/mem_vfs.h) under a name no other ledger of the process uses,
// in WAL mode, so its connections read the last committed snapshot and serialise their writes as on
// disk, with no system call. Its memory is freed once the ScratchLedger and its last connection
// are gone; nothing is left on disk, even when the run is interrupted.
#pragma once

#include <string>
#include <vector>

#include "db/connection.h"
#include "db/schema/ledger_file.h"

namespace idemlab {

// Scratch ledgers use 1 KiB pages: WAL checksums every page a commit writes, and a transfer
// writes small rows to a dozen pages (simulate dedup-table 20k: 6% faster than 4 KiB pages).
inline constexpr int kScratchPageSize = 1024;
// Past this size a scratch ledger's main file spills from memory to a temporary file
// (db/sqlite/mem_vfs.h): about 120,000 simulated requests' worth. A million requests then peak
// near 100 MiB, not 181 (scripts/bench-sim, part 3).
inline constexpr int64_t kScratchMemoryBytes = 48LL << 20;

class ScratchLedger {
 public:
  ScratchLedger() = default;
  ~ScratchLedger();
  ScratchLedger(const ScratchLedger&) = delete;
  ScratchLedger& operator=(const ScratchLedger&) = delete;

  // Makes a ledger with these accounts; `first` is its first connection.
  static Status create(const std::vector<OpeningBalance>& accounts, ScratchLedger* out,
                       Connection* first);
  // Makes a ledger holding what `from` (a connection to another scratch ledger) holds now.
  static Status copy(Connection& from, ScratchLedger* out);

  // Another connection to it: no busy timeout (a wait is virtual), no fsync, a bounded cache.
  Result<Connection> connect() const;
  const std::string& uri() const { return uri_; }

 private:
  Status start(Connection* first);

  std::string name_;
  std::string uri_;
};

// The connection options of a scratch ledger's connections.
ConnectionOptions scratch_connection_options();
// Prepares an empty database as a scratch ledger is prepared (page size, schema, accounts), for
// a connection of another kind (bench_sim's in-memory limit).
Status create_scratch_schema(Connection& connection, const std::vector<OpeningBalance>& accounts);

}  // namespace idemlab
