// An in-memory SQLite VFS for the simulator's scratch ledgers, with WAL. SQLite's own memdb VFS
// has no shared memory, so it cannot run WAL, and without WAL a plain read waits for every open
// write transaction ("database is locked"). This VFS keeps the database, its WAL and the WAL
// index (shared memory) in this process, shared by every connection that opens the same name,
// and implements SQLite's file and WAL-index locks in memory. Readers see the last committed
// snapshot and writers serialise exactly as on disk, with no system call on the hot path.
//
// A main database that outgrows its memory budget spills to an unlinked temporary file and is
// read and written there from then on (the WAL and the locks stay in memory), so that a
// million-request run stays within a fixed amount of memory.
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"

namespace idemlab {

inline constexpr const char* kMemVfsName = "idemlab-mem";
// A spilled database is read through a cache of this size (db/mem_vfs_spill.h).
inline constexpr int64_t kMemVfsSpillCacheBytes = 32LL << 20;

// Registers the VFS (once per process; later calls only change the budget). A main database
// larger than `spill_bytes` moves to a temporary file.
Status register_mem_vfs(int64_t spill_bytes);

// A URI that opens `name` (a unique name per ledger) in the VFS.
std::string mem_vfs_uri(const std::string& name);

// Forgets `name`'s files; their memory is freed when the last connection to them closes.
void mem_vfs_remove(const std::string& name);

}  // namespace idemlab
