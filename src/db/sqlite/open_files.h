// The ledger files this process has open in SQLite, and the one lock their raw reads take.
//
// With POSIX advisory locks, closing any descriptor of a file drops every lock the process holds
// on it, the locks SQLite's connections rely on too (SQLite's "How To Corrupt An SQLite Database
// File", 2.2.1): a raw open and close of a ledger that another connection of this process has
// open cancels that connection's locks, and a second process can then take the file from under
// it (its last connection checkpoints and deletes the WAL the first still writes to). So a raw
// read of a ledger's header (schema/ledger_file.cpp) happens only under this lock, and only while
// no connection of this process has the file open; every SQLite open of a file takes the lock
// too. scripts/nemesis found it: serve's pool opening connections again after a failover, beside
// one-attempt commands on the same file, left a damaged ledger.
#pragma once

#include <sys/types.h>

#include <mutex>
#include <string>

namespace idemlab {

// Held while a file is opened in SQLite, or read raw.
std::unique_lock<std::mutex> hold_file_opens();

// Whether a SQLite connection of this process has `path` open (its device and inode). Call it
// with hold_file_opens() held.
bool open_in_sqlite(const std::string& path);

// One SQLite connection's use of a file, noted while it lives (a file that cannot be stat'ed,
// or a URI the simulator opens in memory, is not noted).
class FileInUse {
 public:
  FileInUse() = default;
  explicit FileInUse(const std::string& path);  // call with hold_file_opens() held
  ~FileInUse();
  FileInUse(const FileInUse&) = delete;
  FileInUse& operator=(const FileInUse&) = delete;

 private:
  dev_t device_ = 0;
  ino_t inode_ = 0;
  bool noted_ = false;
};

}  // namespace idemlab
