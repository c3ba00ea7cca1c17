// Scratch ledgers in the in-memory VFS: a fresh name each, WAL, and the simulator's options.
#include "sim/shared/scratch_ledger.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>

#include "db/sqlite/mem_vfs.h"
#include "db/sqlite/sqlite_backend.h"

namespace idemlab {

ConnectionOptions scratch_connection_options() {
  ConnectionOptions options;
  options.uri = true;           // the ledger is in the in-memory VFS
  options.busy_timeout_ms = 0;  // a busy lock is a wait in virtual time, not a real sleep
  options.synchronous_off = true;
  options.cache_kib = 128;
  return options;
}

Status create_scratch_schema(Connection& connection, const std::vector<OpeningBalance>& accounts) {
  const std::string page_size = fmt::format("PRAGMA page_size = {}", kScratchPageSize);
  RETURN_IF_ERROR(connection.exec_script(page_size.c_str()));
  return create_schema(connection, accounts);
}

ScratchLedger::~ScratchLedger() {
  if (!name_.empty()) mem_vfs_remove(name_);
}

Status ScratchLedger::start(Connection* first) {
  static std::atomic<uint64_t> ledgers{0};
  RETURN_IF_ERROR(register_mem_vfs(kScratchMemoryBytes));
  name_ = fmt::format("idemlab-scratch-{}-{}.db", ::getpid(), ledgers++);
  uri_ = mem_vfs_uri(name_);
  ConnectionOptions create = scratch_connection_options();
  create.create = true;
  ASSIGN_OR_RETURN(*first, open_sqlite(uri_, create));
  return Status::ok();
}

Status ScratchLedger::create(const std::vector<OpeningBalance>& accounts, ScratchLedger* out,
                             Connection* first) {
  RETURN_IF_ERROR(out->start(first));
  RETURN_IF_ERROR(create_scratch_schema(*first, accounts));
  return first->exec_script("PRAGMA journal_mode = WAL");
}

Status ScratchLedger::copy(Connection& from, ScratchLedger* out) {
  Connection to;
  RETURN_IF_ERROR(out->start(&to));
  RETURN_IF_ERROR(copy_sqlite_database(from, to));
  return to.exec_script("PRAGMA journal_mode = WAL");
}

Result<Connection> ScratchLedger::connect() const {
  return open_sqlite(uri_, scratch_connection_options());
}

}  // namespace idemlab
