// A spilled main database (db/mem_vfs_file.h): an unlinked temporary file, read through a
// direct-mapped cache of its 4 KiB blocks. Every connection re-reads its pages after another
// connection's commit; without the cache each of those reads was a system call, and a
// million-request simulation ran a fifth slower than its first 100,000 requests.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "db/sqlite/mem_vfs.h"

namespace idemlab::memvfs {

class SpillFile {
 public:
  SpillFile() = default;
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Creates the temporary file and unlinks it at once. SQLITE_OK or an I/O error code.
  int create();
  // Reads [offset, offset + amount), all within the file.
  int read(char* to, int64_t amount, int64_t offset);
  int write(const char* from, int64_t amount, int64_t offset);
  // The bytes the file held in memory, moved here at the spill: written, and not cached (the
  // memory they were in is still held until the spill ends).
  int move_in(const char* from, int64_t amount, int64_t offset);
  int truncate(int64_t size);

 private:
  static constexpr int64_t kCacheBytes = kMemVfsSpillCacheBytes;
  static constexpr int64_t kBlock = 4096;
  static constexpr size_t kSlots = static_cast<size_t>(kCacheBytes / kBlock);
  static constexpr int64_t kReadAhead = 16;  // blocks a miss reads: 64 KiB
  char* slot_bytes(size_t slot) { return bytes_.get() + static_cast<int64_t>(slot) * kBlock; }
  int fill(size_t slot, int64_t block);

  int fd_ = -1;
  int64_t size_ = 0;             // the file's size: every block wholly past it reads as zeros
  std::vector<int64_t> cached_;  // per slot: the block it holds, or -1
  std::unique_ptr<char[]> bytes_;
};

}  // namespace idemlab::memvfs
