// A file's bytes in 64 KiB chunks (growing never copies what is there), or, once a main
// database passes the budget, in an unlinked temporary file.
#include "db/mem_vfs_file.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace idemlab::memvfs {

namespace {
std::atomic<int64_t> spill_bytes{INT64_MAX};
}  // namespace

void set_spill_bytes(int64_t bytes) {
  spill_bytes = bytes;
}

MemFile::~MemFile() {
  if (fd_ >= 0) ::close(fd_);
}

char* MemFile::chunk_at(int64_t offset) {
  const size_t index = static_cast<size_t>(offset / kChunk);
  while (chunks_.size() <= index) chunks_.push_back(std::make_unique<char[]>(kChunk));
  return chunks_[index].get() + offset % kChunk;
}

int MemFile::read(void* out, int amount, int64_t offset) {
  char* to = static_cast<char*>(out);
  const int64_t available = std::clamp<int64_t>(size_ - offset, 0, amount);
  if (fd_ >= 0) {
    if (available > 0 && ::pread(fd_, to, static_cast<size_t>(available), offset) != available)
      return SQLITE_IOERR_READ;
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
  if (fd_ < 0 && may_spill_ && offset + amount > spill_bytes.load())
    if (int rc = spill(); rc != SQLITE_OK) return rc;
  if (fd_ >= 0) {
    if (::pwrite(fd_, from, static_cast<size_t>(amount), offset) != amount)
      return SQLITE_IOERR_WRITE;
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

int MemFile::truncate(int64_t size) {
  if (fd_ >= 0 && ::ftruncate(fd_, size) != 0) return SQLITE_IOERR_TRUNCATE;
  if (size >= size_) return SQLITE_OK;  // SQLite only shrinks files
  if (fd_ < 0) {
    chunks_.resize(static_cast<size_t>((size + kChunk - 1) / kChunk));
    if (size % kChunk != 0)  // a later write past a hole must find zeros there, as on disk
      std::memset(chunks_.back().get() + size % kChunk, 0,
                  static_cast<size_t>(kChunk - size % kChunk));
  }
  size_ = size;
  return SQLITE_OK;
}

// Moves the bytes to a temporary file, unlinked at once so that nothing is left behind.
int MemFile::spill() {
  std::string path = (std::filesystem::temp_directory_path() / "idemlab-spill-XXXXXX").string();
  const int fd = ::mkstemp(path.data());
  if (fd < 0) return SQLITE_IOERR_WRITE;
  ::unlink(path.c_str());
  for (int64_t offset = 0; offset < size_; offset += kChunk) {
    const int64_t piece = std::min(kChunk, size_ - offset);
    if (::pwrite(fd, chunk_at(offset), static_cast<size_t>(piece), offset) != piece) {
      ::close(fd);
      return SQLITE_IOERR_WRITE;
    }
  }
  chunks_.clear();
  chunks_.shrink_to_fit();
  fd_ = fd;
  return SQLITE_OK;
}

}  // namespace idemlab::memvfs
