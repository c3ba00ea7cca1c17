// The spill file and its write-back block cache. A slot holds one block; a dirty slot's block
// is newer than the file's copy and is written out before the slot takes another block.
#include "db/sqlite/mem_vfs_spill.h"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <string>

#include "core/check.h"

namespace idemlab::memvfs {

SpillFile::SpillFile(int64_t cache_bytes) : slots_(static_cast<size_t>(cache_bytes / kBlock)) {
  IDEMLAB_CHECK(std::has_single_bit(slots_), "a spill cache holds a power of two of blocks");
}

SpillFile::~SpillFile() {
  if (fd_ >= 0) ::close(fd_);
}

int SpillFile::create() {
  std::string path = (std::filesystem::temp_directory_path() / "idemlab-spill-XXXXXX").string();
  fd_ = ::mkstemp(path.data());
  if (fd_ < 0) return SQLITE_IOERR_WRITE;
  ::unlink(path.c_str());
  cached_.assign(slots_, -1);
  dirty_.assign(slots_, 0);
  // Left uninitialised (no slot is read before it is filled): its pages cost memory as the
  // cache fills, not while the spill copies the in-memory chunks that are still held.
  bytes_.reset(new char[slots_ * static_cast<size_t>(kBlock)]);
  return SQLITE_OK;
}

// Writes the slot's block to the file if the file's copy is older (only the part before the
// file's end: the file never holds bytes past it).
int SpillFile::flush(size_t slot) {
  if (!dirty_[slot]) return SQLITE_OK;
  const int64_t at = cached_[slot] * kBlock;
  const int64_t bytes = std::min(kBlock, size_ - at);
  if (bytes > 0) {
    if (::pwrite(fd_, slot_bytes(slot), static_cast<size_t>(bytes), at) != bytes)
      return SQLITE_IOERR_WRITE;
    ++file_writes_;
  }
  dirty_[slot] = 0;
  return SQLITE_OK;
}

// The slot gives up its block (written out first if dirty) and holds `block`: zeros if
// `zeroed`, else whatever the caller puts there next.
int SpillFile::take(size_t slot, int64_t block, bool zeroed) {
  if (int rc = flush(slot); rc != SQLITE_OK) return rc;
  cached_[slot] = block;
  if (zeroed) std::memset(slot_bytes(slot), 0, static_cast<size_t>(kBlock));
  return SQLITE_OK;
}

// Reads `block` into `slot`, and the blocks after it into the slots after it, up to
// kReadAhead in all, in one system call: a scan (the audit's, at the end of a run) reads the
// file in order. A dirty slot the read-ahead reaches is written out first; the read-ahead stops
// before a slot that already holds its block, which needs no read. Past the end of the file a
// block reads as zeros.
int SpillFile::fill(size_t slot, int64_t block) {
  const int64_t blocks_in_file = (size_ + kBlock - 1) / kBlock;
  int64_t count = std::max<int64_t>(
      1, std::min({kReadAhead, static_cast<int64_t>(slots_ - slot), blocks_in_file - block}));
  for (int64_t i = 1; i < count; ++i)
    if (cached_[slot + static_cast<size_t>(i)] == block + i) count = i;
  for (int64_t i = 0; i < count; ++i)
    if (int rc = flush(slot + static_cast<size_t>(i)); rc != SQLITE_OK) return rc;
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
    const size_t slot = slot_of(block);
    if (cached_[slot] != block)
      if (int rc = fill(slot, block); rc != SQLITE_OK) return rc;
    const int64_t piece = std::min(amount - done, kBlock - at % kBlock);
    std::memcpy(to + done, slot_bytes(slot) + at % kBlock, static_cast<size_t>(piece));
    done += piece;
  }
  return SQLITE_OK;
}

// A write lands in the cache when the block is there, when it covers the whole block (SQLite
// writes whole pages), or when the file did not reach the block before (zeros and the write:
// the pages a growing ledger appends are the ones read next). Only a part of a block that is
// neither goes straight to the file.
int SpillFile::write(const char* from, int64_t amount, int64_t offset) {
  for (int64_t done = 0; done < amount;) {
    const int64_t at = offset + done;
    const int64_t block = at / kBlock;
    const size_t slot = slot_of(block);
    const int64_t piece = std::min(amount - done, kBlock - at % kBlock);
    if (cached_[slot] != block) {
      const bool whole = piece == kBlock, fresh = block * kBlock >= size_;
      int rc = whole || fresh ? take(slot, block, !whole) : write_through(from + done, piece, at);
      if (rc != SQLITE_OK) return rc;
    }
    if (cached_[slot] == block) {
      std::memcpy(slot_bytes(slot) + at % kBlock, from + done, static_cast<size_t>(piece));
      dirty_[slot] = 1;
    }
    done += piece;
  }
  size_ = std::max(size_, offset + amount);
  return SQLITE_OK;
}

int SpillFile::write_through(const char* from, int64_t amount, int64_t offset) {
  if (::pwrite(fd_, from, static_cast<size_t>(amount), offset) != amount) return SQLITE_IOERR_WRITE;
  ++file_writes_;
  return SQLITE_OK;
}

int SpillFile::move_in(const char* from, int64_t amount, int64_t offset) {
  if (int rc = write_through(from, amount, offset); rc != SQLITE_OK) return rc;
  size_ = std::max(size_, offset + amount);
  return SQLITE_OK;
}

// The block the cut falls in keeps what lies before the cut, so a dirty copy of it is written
// out first; then it and every block past it leave the cache, unwritten.
int SpillFile::truncate(int64_t size) {
  const int64_t cut = size / kBlock;
  if (size % kBlock != 0 && cached_[slot_of(cut)] == cut)
    if (int rc = flush(slot_of(cut)); rc != SQLITE_OK) return rc;
  if (::ftruncate(fd_, size) != 0) return SQLITE_IOERR_TRUNCATE;
  size_ = size;
  for (size_t slot = 0; slot < slots_; ++slot)
    if (cached_[slot] >= cut) {
      cached_[slot] = -1;
      dirty_[slot] = 0;
    }
  return SQLITE_OK;
}

}  // namespace idemlab::memvfs
