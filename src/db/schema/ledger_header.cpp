// Reading a ledger file's header without SQLite.
#include "db/schema/ledger_header.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "db/schema/ledger_file.h"
#include "db/sqlite/open_files.h"

namespace idemlab {

namespace {

uint32_t big_endian(const unsigned char* bytes, int size) {
  uint32_t value = 0;
  for (int i = 0; i < size; ++i) value = (value << 8) | bytes[i];
  return value;
}

// Header fields whose values SQLite's file format fixes: a flipped bit there makes SQLite
// refuse the file ("unsupported file format") or open it read-only.
Status check_fixed_fields(const unsigned char* header, const std::string& path) {
  auto in = [](unsigned value, unsigned low, unsigned high) {
    return value >= low && value <= high;
  };
  if (!in(header[18], 1, 2) || !in(header[19], 1, 2))
    return damaged(path, fmt::format("the header's format versions {} and {} are not 1 or 2",
                                     header[18], header[19]));
  if (header[21] != 64 || header[22] != 32 || header[23] != 32)
    return damaged(path, "the header's payload fractions are not 64, 32, 32");
  if (!in(big_endian(header + 44, 4), 1, 4))
    return damaged(path, fmt::format("the header's schema format {} is not 1 to 4",
                                     big_endian(header + 44, 4)));
  if (!in(big_endian(header + 56, 4), 1, 3))
    return damaged(path, fmt::format("the header's text encoding {} is not 1 to 3",
                                     big_endian(header + 56, 4)));
  for (int i = 72; i < 92; ++i)
    if (header[i] != 0) return damaged(path, "the header's reserved bytes are not zero");
  return Status::ok();
}

}  // namespace

Status damaged(const std::string& path, const std::string& why) {
  return Status::damaged(
      fmt::format("{} is damaged: {}; nothing was written (idemlab audit --db "
                  "{} lists what SQLite finds)",
                  path, why, path));
}

// A checkpoint that could not grow the main file (the disk being full) leaves it shorter than
// its header says, without any damage: the pages are in the -wal file.
bool wal_holds_frames(const std::string& path) {
  struct stat wal {};
  return ::stat((path + "-wal").c_str(), &wal) == 0 && wal.st_size > 32;
}

bool is_folder(const std::string& path) {
  struct stat kind {};
  return ::stat(path.c_str(), &kind) == 0 && S_ISDIR(kind.st_mode);
}

Status check_ledger_header(const std::string& path, bool* size_left_to_sqlite) {
  if (size_left_to_sqlite) *size_left_to_sqlite = false;
  if (is_folder(path))
    return Status::ledger(fmt::format("{} is a folder, not a ledger file", path));
  unsigned char header[100] = {};
  // Never while a connection of this process has it open: the close would drop its locks
  // (db/sqlite/open_files.h). Such a file was checked when it was first opened; SQLite reads it
  // now, and says so if it finds it damaged.
  const std::unique_lock<std::mutex> raw_read = hold_file_opens();
  if (open_in_sqlite(path)) return Status::ok();
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return Status::ledger(fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  const size_t read = std::fread(header, 1, sizeof header, file);
  std::fclose(file);
  if (read < sizeof header || std::memcmp(header, "SQLite format 3", 16) != 0)
    return Status::ledger(fmt::format("{} is not an idemlab ledger (not a SQLite database)", path));
  uint32_t page_size = big_endian(header + 16, 2);
  if (page_size == 1) page_size = 65536;
  if (page_size < 512 || (page_size & (page_size - 1)) != 0)
    return damaged(path, fmt::format("the header's page size {} is impossible", page_size));
  if (big_endian(header + 68, 4) != static_cast<uint32_t>(kApplicationId))
    return Status::ledger(fmt::format("{} is not an idemlab ledger", path));
  RETURN_IF_ERROR(check_fixed_fields(header, path));
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return damaged(path, "it cannot be measured");
  const uint64_t size = static_cast<uint64_t>(info.st_size);
  const uint64_t pages = big_endian(header + 28, 4);
  const bool size_disagrees =
      size % page_size != 0 ||
      (big_endian(header + 92, 4) == big_endian(header + 24, 4) && size < pages * page_size);
  if (size_disagrees && wal_holds_frames(path)) {
    if (size_left_to_sqlite) *size_left_to_sqlite = true;  // SQLite reads it with its WAL
    return Status::ok();
  }
  if (size % page_size != 0)
    return damaged(path, fmt::format("its size, {} bytes, is not a whole number of {}-byte pages",
                                     size, page_size));
  // The page count is valid when the "version valid for" field matches the change counter.
  if (big_endian(header + 92, 4) == big_endian(header + 24, 4) && size < pages * page_size)
    return damaged(path, fmt::format("the header counts {} pages, the file holds {}", pages,
                                     size / page_size));
  return Status::ok();
}

}  // namespace idemlab
