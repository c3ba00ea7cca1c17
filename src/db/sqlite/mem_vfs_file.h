// The shared state behind one name in the in-memory VFS: the bytes of a file (in memory, or
// spilled to a temporary file), SQLite's five-level file lock, and the WAL index's regions and
// eight slot locks. One MemFile is shared by every connection that opens the name; a
// MemHandle is one connection's view of it.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "db/sqlite/mem_vfs_spill.h"

namespace idemlab::memvfs {

class MemFile {
 public:
  explicit MemFile(bool may_spill) : may_spill_(may_spill) {}

  int read(void* out, int amount, int64_t offset);
  int write(const void* in, int amount, int64_t offset);
  int truncate(int64_t size);
  int64_t size() const { return size_; }

  std::mutex mutex;  // taken by every handle operation

  // File locks (SQLITE_LOCK_*), counted over the handles.
  int shared = 0;                   // handles at SHARED or above
  const void* reserved = nullptr;   // the handle at RESERVED or above
  const void* pending = nullptr;    // the handle waiting for EXCLUSIVE
  const void* exclusive = nullptr;  // the handle at EXCLUSIVE

  // The WAL index: regions, and per slot the readers and whether a writer holds it.
  std::vector<std::unique_ptr<char[]>> regions;
  int shm_shared[SQLITE_SHM_NLOCK] = {};
  bool shm_exclusive[SQLITE_SHM_NLOCK] = {};
  int shm_users = 0;

 private:
  static constexpr int64_t kChunk = 64 * 1024;
  int spill();
  char* chunk_at(int64_t offset);

  bool may_spill_;
  std::unique_ptr<SpillFile> spilled_;  // set: the bytes are in this temporary file
  int64_t size_ = 0;
  std::vector<std::unique_ptr<char[]>> chunks_;
};

// The budget past which a main database spills (bytes); set by register_mem_vfs.
void set_spill_bytes(int64_t bytes);

}  // namespace idemlab::memvfs
