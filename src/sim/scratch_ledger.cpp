// Scratch ledgers in the in-memory VFS: a fresh name each, WAL, and the simulator's options.
#include "sim/scratch_ledger.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>

#include "db/mem_vfs.h"

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
  if (Status status = connection.exec_script(page_size.c_str()); !status.is_ok()) return status;
  return create_schema(connection, accounts);
}

ScratchLedger::~ScratchLedger() {
  if (!name_.empty()) mem_vfs_remove(name_);
}

Status ScratchLedger::start(Connection* first) {
  static std::atomic<uint64_t> ledgers{0};
  if (Status status = register_mem_vfs(kScratchMemoryBytes); !status.is_ok()) return status;
  name_ = fmt::format("idemlab-scratch-{}-{}.db", ::getpid(), ledgers++);
  uri_ = mem_vfs_uri(name_);
  ConnectionOptions create = scratch_connection_options();
  create.create = true;
  return Connection::open(uri_, create, first);
}

Status ScratchLedger::create(const std::vector<OpeningBalance>& accounts, ScratchLedger* out,
                             Connection* first) {
  if (Status status = out->start(first); !status.is_ok()) return status;
  if (Status status = create_scratch_schema(*first, accounts); !status.is_ok()) return status;
  return first->exec_script("PRAGMA journal_mode = WAL");
}

Status ScratchLedger::copy(Connection& from, ScratchLedger* out) {
  Connection to;
  if (Status status = out->start(&to); !status.is_ok()) return status;
  if (Status status = from.copy_database_to(to); !status.is_ok()) return status;
  return to.exec_script("PRAGMA journal_mode = WAL");
}

Status ScratchLedger::connect(Connection* out) const {
  return Connection::open(uri_, scratch_connection_options(), out);
}

}  // namespace idemlab
