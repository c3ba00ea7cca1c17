// A file's bytes in 64 KiB chunks (growing never copies what is there), or, once a main
// database passes the budget, in a spill file (db/mem_vfs_spill.h).
#include "db/sqlite/mem_vfs_file.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace idemlab::memvfs {

namespace {
std::atomic<int64_t> spill_bytes{INT64_MAX};
}  // namespace

void set_spill_bytes(int64_t bytes) {
  spill_bytes = bytes;
}

char* MemFile::chunk_at(int64_t offset) {
  const size_t index = static_cast<size_t>(offset / kChunk);
  while (chunks_.size() <= index) chunks_.push_back(std::make_unique<char[]>(kChunk));
  return chunks_[index].get() + offset % kChunk;
}

int MemFile::read(void* out, int amount, int64_t offset) {
  char* to = static_cast<char*>(out);
  const int64_t available = std::clamp<int64_t>(size_ - offset, 0, amount);
  if (spilled_) {
    if (int rc = spilled_->read(to, available, offset); rc != SQLITE_OK) return rc;
  } else {
    for (int64_t done = 0; done < available;) {
      const int64_t piece = std::min(available - done, kChunk - (offset + done) % kChunk);
      std::memcpy(to + done, chunk_at(offset + done), static_cast<size_t>(piece));
      done += piece;
    }
  }
  if (available == amount) return SQLITE_OK;
  std::memset(to + available, 0, static_cast<size_t>(amount - available));
  return SQLITE_IOERR_SHORT_READ;
}

int MemFile::write(const void* in, int amount, int64_t offset) {
  const char* from = static_cast<const char*>(in);
  if (!spilled_ && may_spill_ && offset + amount > spill_bytes.load())
    if (int rc = spill(); rc != SQLITE_OK) return rc;
  if (spilled_) {
    if (int rc = spilled_->write(from, amount, offset); rc != SQLITE_OK) return rc;
  } else {
    for (int64_t done = 0; done < amount;) {
      const int64_t piece = std::min<int64_t>(amount - done, kChunk - (offset + done) % kChunk);
      std::memcpy(chunk_at(offset + done), from + done, static_cast<size_t>(piece));
      done += piece;
    }
  }
  size_ = std::max<int64_t>(size_, offset + amount);
  return SQLITE_OK;
}

// SQLite only shrinks files; a checkpoint "truncates" to the size the file has already, after
// every full checkpoint, which changes nothing and must cost nothing.
int MemFile::truncate(int64_t size) {
  if (size >= size_) return SQLITE_OK;
  if (spilled_)
    if (int rc = spilled_->truncate(size); rc != SQLITE_OK) return rc;
  if (!spilled_) {
    chunks_.resize(static_cast<size_t>((size + kChunk - 1) / kChunk));
    if (size % kChunk != 0)  // a later write past a hole must find zeros there, as on disk
      std::memset(chunks_.back().get() + size % kChunk, 0,
                  static_cast<size_t>(kChunk - size % kChunk));
  }
  size_ = size;
  return SQLITE_OK;
}

// Moves the bytes to a temporary file (db/mem_vfs_spill.h), so that nothing is left behind.
int MemFile::spill() {
  auto file = std::make_unique<SpillFile>();
  if (int rc = file->create(); rc != SQLITE_OK) return rc;
  for (int64_t offset = 0; offset < size_; offset += kChunk)
    if (int rc = file->move_in(chunk_at(offset), std::min(kChunk, size_ - offset), offset);
        rc != SQLITE_OK)
      return rc;
  chunks_.clear();
  chunks_.shrink_to_fit();
#if defined(__GLIBC__)
  // The chunks were heap pages amid others, which the trim threshold idemlab sets keeps: give
  // them back now, or the process holds the budget and the spill file's cache both.
  malloc_trim(0);
#endif
  spilled_ = std::move(file);
  return SQLITE_OK;
}

}  // namespace idemlab::memvfs
