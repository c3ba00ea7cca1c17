// A spilled main database (db/mem_vfs_file.h): an unlinked temporary file, read and written
// through a direct-mapped cache of its 4 KiB blocks. Every connection re-reads its pages after
// another connection's commit, and every checkpoint writes the pages the WAL changed, mostly
// the same few again; without the cache each of those was a system call, and a
// million-request simulation ran a fifth slower than its first 100,000 requests.
//
// The cache writes back: a block written is kept in its slot and reaches the file only when
// another block takes the slot (or a cut needs it there). The file is scratch, unlinked at
// birth and never read by anyone else, so nothing is owed to it before then.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "db/sqlite/mem_vfs.h"

namespace idemlab::memvfs {

class SpillFile {
 public:
  // `cache_bytes`: a power of two times the block size.
  explicit SpillFile(int64_t cache_bytes = kMemVfsSpillCacheBytes);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Creates the temporary file and unlinks it at once. SQLITE_OK or an I/O error code.
  int create();
  // Reads [offset, offset + amount), all within the file.
  int read(char* to, int64_t amount, int64_t offset);
  int write(const char* from, int64_t amount, int64_t offset);
  // The bytes the file held in memory, moved here at the spill: written, and not cached (the
  // memory they were in is still held until the spill ends). Only before any other write.
  int move_in(const char* from, int64_t amount, int64_t offset);
  int truncate(int64_t size);

  // System calls that wrote blocks, for the tests: a block rewritten while it stays cached
  // costs none.
  int64_t file_writes() const { return file_writes_; }

 private:
  static constexpr int64_t kBlock = 4096;
  static constexpr int64_t kReadAhead = 16;  // blocks a miss reads: 64 KiB
  size_t slot_of(int64_t block) const { return static_cast<size_t>(block) & (slots_ - 1); }
  char* slot_bytes(size_t slot) { return bytes_.get() + static_cast<int64_t>(slot) * kBlock; }
  int fill(size_t slot, int64_t block);
  int flush(size_t slot);
  int take(size_t slot, int64_t block, bool zeroed);
  int write_through(const char* from, int64_t amount, int64_t offset);

  const size_t slots_;
  int fd_ = -1;
  int64_t size_ = 0;             // the file's size: every block wholly past it reads as zeros
  std::vector<int64_t> cached_;  // per slot: the block it holds, or -1
  std::vector<uint8_t> dirty_;   // per slot: its block is newer than the file's
  std::unique_ptr<char[]> bytes_;
  int64_t file_writes_ = 0;
};

}  // namespace idemlab::memvfs
