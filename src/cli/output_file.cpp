// Guarded output files.
#include "cli/output_file.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <array>
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

}  // namespace

Status open_output_file(const std::string& option, const std::string& path,
                        const std::string& ledger_path, OutputFile* out) {
  if (path.empty()) return Status::usage(option + " needs a file name");
  for (const char* suffix : {"", "-wal", "-shm", "-journal"})
    if (same_file(path, ledger_path + suffix))
      return Status::usage(
          fmt::format("{} {} would overwrite the ledger {}{}", option, path, ledger_path, suffix));
  if (is_sqlite_file(path))
    return Status::usage(
        fmt::format("{} {} is a SQLite database; idemlab will not write over it", option, path));
  OutputFile file(std::fopen(path.c_str(), "w"), std::fclose);
  if (!file)
    return Status::usage(
        fmt::format("{}: cannot write {}: {}", option, path, std::strerror(errno)));
  *out = std::move(file);
  return Status::ok();
}

}  // namespace idemlab
