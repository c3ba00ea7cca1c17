// The spill file and its block cache. Writes go to the file and to the cached copy of every
// block they touch, so a cached block is always what the file holds.
#include "db/sqlite/mem_vfs_spill.h"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>

namespace idemlab::memvfs {

SpillFile::~SpillFile() {
  if (fd_ >= 0) ::close(fd_);
}

int SpillFile::create() {
  std::string path = (std::filesystem::temp_directory_path() / "idemlab-spill-XXXXXX").string();
  fd_ = ::mkstemp(path.data());
  if (fd_ < 0) return SQLITE_IOERR_WRITE;
  ::unlink(path.c_str());
  cached_.assign(kSlots, -1);
  // Left uninitialised (no slot is read before it is filled): its pages cost memory as the
  // cache fills, not while the spill copies the in-memory chunks that are still held.
  bytes_.reset(new char[static_cast<size_t>(kCacheBytes)]);
  return SQLITE_OK;
}

// Reads `block` into `slot`, and the blocks after it into the slots after it, up to
// kReadAhead in all, in one system call: a scan (the audit's, at the end of a run) reads the
// file in order. Past the end of the file a block reads as zeros.
int SpillFile::fill(size_t slot, int64_t block) {
  const int64_t blocks_in_file = (size_ + kBlock - 1) / kBlock;
  const int64_t count = std::max<int64_t>(
      1, std::min({kReadAhead, static_cast<int64_t>(kSlots - slot), blocks_in_file - block}));
  char* to = slot_bytes(slot);
  const ssize_t got = ::pread(fd_, to, static_cast<size_t>(count * kBlock), block * kBlock);
  if (got < 0) return SQLITE_IOERR_READ;
  std::memset(to + got, 0, static_cast<size_t>(count * kBlock - got));
  for (int64_t i = 0; i < count; ++i) cached_[slot + static_cast<size_t>(i)] = block + i;
  return SQLITE_OK;
}

int SpillFile::read(char* to, int64_t amount, int64_t offset) {
  for (int64_t done = 0; done < amount;) {
    const int64_t at = offset + done;
    const int64_t block = at / kBlock;
    const size_t slot = static_cast<size_t>(block) % kSlots;
    if (cached_[slot] != block)
      if (int rc = fill(slot, block); rc != SQLITE_OK) return rc;
    const int64_t piece = std::min(amount - done, kBlock - at % kBlock);
    std::memcpy(to + done, slot_bytes(slot) + at % kBlock, static_cast<size_t>(piece));
    done += piece;
  }
  return SQLITE_OK;
}

// A block the file did not reach before this write is cached as it is written (zeros and the
// write): the pages a growing ledger appends are the ones read next, and need no read back.
int SpillFile::write(const char* from, int64_t amount, int64_t offset) {
  if (::pwrite(fd_, from, static_cast<size_t>(amount), offset) != amount) return SQLITE_IOERR_WRITE;
  for (int64_t done = 0; done < amount;) {
    const int64_t at = offset + done;
    const int64_t block = at / kBlock;
    const size_t slot = static_cast<size_t>(block) % kSlots;
    const int64_t piece = std::min(amount - done, kBlock - at % kBlock);
    if (cached_[slot] != block && block * kBlock >= size_) {
      std::memset(slot_bytes(slot), 0, static_cast<size_t>(kBlock));
      cached_[slot] = block;
    }
    if (cached_[slot] == block)
      std::memcpy(slot_bytes(slot) + at % kBlock, from + done, static_cast<size_t>(piece));
    done += piece;
  }
  size_ = std::max(size_, offset + amount);
  return SQLITE_OK;
}

int SpillFile::move_in(const char* from, int64_t amount, int64_t offset) {
  if (::pwrite(fd_, from, static_cast<size_t>(amount), offset) != amount) return SQLITE_IOERR_WRITE;
  size_ = std::max(size_, offset + amount);
  return SQLITE_OK;
}

// Only the blocks the cut reaches leave the cache: the one it falls in and those past it.
int SpillFile::truncate(int64_t size) {
  if (::ftruncate(fd_, size) != 0) return SQLITE_IOERR_TRUNCATE;
  size_ = size;
  for (int64_t& block : cached_)
    if (block >= size / kBlock) block = -1;
  return SQLITE_OK;
}

}  // namespace idemlab::memvfs
