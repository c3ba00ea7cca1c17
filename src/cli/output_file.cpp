// Guarded output files.
#include "cli/output_file.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace idemlab {

namespace {

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  if (std::filesystem::weakly_canonical(a, error) == std::filesystem::weakly_canonical(b, error) &&
      !error)
    return true;
  struct stat first {
  }, second{};
  return ::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0 &&
         first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

bool is_sqlite_file(const std::string& path) {
  char header[16] = {};
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return false;
  const size_t read = std::fread(header, 1, sizeof header, file);
  std::fclose(file);
  return read == sizeof header && std::memcmp(header, "SQLite format 3", 16) == 0;
}

// The Status for a write to `path` that failed with `error` (errno), which left it `what_is_left`.
Status write_error(const std::string& option, const std::string& path, int error,
                   std::string_view what_is_left) {
  if (error == ENOSPC || error == EDQUOT)
    return Status::unavailable("disk_full", fmt::format("the disk holding {} is full: {} {} {}",
                                                        path, option, path, what_is_left));
  return Status::usage(fmt::format("{}: cannot write {}: {}", option, path, std::strerror(error)));
}

constexpr std::array<std::string_view, 3> kSidecars{"-wal", "-shm", "-journal"};

// The one guard of every output option: a file idemlab writes is never the ledger, nor any
// SQLite database (a ledger named otherwise, or another program's), nor one's -wal, -shm or
// -journal file, by name or through a link.
Status check_output_path(const std::string& option, const std::string& path,
                         const std::string& ledger_path) {
  if (path.empty()) return Status::usage(option + " needs a file name");
  if (!ledger_path.empty())
    for (const std::string_view suffix :
         {std::string_view(), kSidecars[0], kSidecars[1], kSidecars[2]})
      if (same_file(path, ledger_path + std::string(suffix)))
        return Status::usage(fmt::format("{} {} would overwrite the ledger {}{}", option, path,
                                         ledger_path, suffix));
  if (is_sqlite_file(path))
    return Status::usage(
        fmt::format("{} {} is a SQLite database; idemlab will not write over it", option, path));
  for (const std::string_view suffix : kSidecars)
    if (path.ends_with(suffix) && is_sqlite_file(path.substr(0, path.size() - suffix.size())))
      return Status::usage(
          fmt::format("{} {} belongs to the SQLite database {}; idemlab will not "
                      "write over it",
                      option, path, path.substr(0, path.size() - suffix.size())));
  return Status::ok();
}

}  // namespace

// The guard, and a folder that takes a new file: what write_whole_file will need, checked before
// the work whose result it writes.
Status check_whole_file_target(const std::string& option, const std::string& path,
                               const std::string& ledger_path) {
  RETURN_IF_ERROR(check_output_path(option, path, ledger_path));
  std::string folder = std::filesystem::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return write_error(option, path, errno, "was not written");
  return Status::ok();
}

Status open_output_file(const std::string& option, const std::string& path,
                        const std::string& ledger_path, OutputFile* out) {
  RETURN_IF_ERROR(check_output_path(option, path, ledger_path));
  OutputFile file(std::fopen(path.c_str(), "w"), std::fclose);
  if (!file)
    return Status::usage(
        fmt::format("{}: cannot write {}: {}", option, path, std::strerror(errno)));
  *out = std::move(file);
  return Status::ok();
}

Status close_output_file(const std::string& option, const std::string& path, OutputFile* file) {
  std::FILE* raw = file->release();
  if (!raw) return Status::ok();
  errno = 0;
  bool written = std::fflush(raw) == 0 && !std::ferror(raw);
  int error = errno;
  if (std::fclose(raw) != 0 && written) {
    written = false;
    error = errno;
  }
  return written ? Status::ok() : write_error(option, path, error, "is incomplete");
}

Status write_whole_file(const std::string& option, const std::string& path,
                        std::string_view contents, const std::string& ledger_path) {
  RETURN_IF_ERROR(check_whole_file_target(option, path, ledger_path));
  const std::string partial = path + ".partial";
  std::FILE* file = std::fopen(partial.c_str(), "wb");
  if (!file) return write_error(option, path, errno, "was not written");
  errno = 0;
  bool written = std::fwrite(contents.data(), 1, contents.size(), file) == contents.size() &&
                 std::fflush(file) == 0;
  int error = errno;
  if (std::fclose(file) != 0 && written) {
    written = false;
    error = errno;
  }
  if (!written || std::rename(partial.c_str(), path.c_str()) != 0) {
    if (written) error = errno;
    std::remove(partial.c_str());
    return write_error(option, path, error, "was not written");
  }
  return Status::ok();
}

}  // namespace idemlab
