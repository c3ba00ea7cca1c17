// The files this process has open in SQLite.
#include "db/sqlite/open_files.h"

#include <sys/stat.h>

#include <map>
#include <utility>

namespace idemlab {

namespace {

std::mutex& opens() {
  static std::mutex mutex;
  return mutex;
}

// (device, inode) -> connections open on it. Guarded by opens().
std::map<std::pair<dev_t, ino_t>, int>& in_use() {
  static std::map<std::pair<dev_t, ino_t>, int> files;
  return files;
}

}  // namespace

std::unique_lock<std::mutex> hold_file_opens() {
  return std::unique_lock<std::mutex>(opens());
}

bool open_in_sqlite(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return false;
  return in_use().count({info.st_dev, info.st_ino}) > 0;
}

FileInUse::FileInUse(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return;
  device_ = info.st_dev;
  inode_ = info.st_ino;
  noted_ = true;
  ++in_use()[{device_, inode_}];
}

FileInUse::~FileInUse() {
  if (!noted_) return;
  const std::lock_guard lock(opens());
  auto file = in_use().find({device_, inode_});
  if (file != in_use().end() && --file->second == 0) in_use().erase(file);
}

}  // namespace idemlab
