// Creating and opening ledger files.
#include "db/schema/ledger_file.h"

#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/limits.h"
#include "db/schema/ledger_header.h"
#include "db/schema/migrate.h"
#include "db/schema/server_ledger.h"
#include "db/sqlite/open_files.h"
#include "db/sqlite/sqlite_backend.h"

namespace idemlab {

namespace {

// Whether the folder holding `path` is on a read-only filesystem (a snapshot, a backup, a
// read-only mount): SQLite can then create no -shm file beside a WAL ledger.
bool on_read_only_filesystem(const std::string& path) {
  std::string folder = std::filesystem::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  struct statvfs info {};
  return ::statvfs(folder.c_str(), &info) == 0 && (info.f_flag & ST_RDONLY) != 0;
}

bool file_exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

// A ledger the user made read-only (chmod a-w) stays read-only, even for root, who could write.
bool is_write_protected(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return false;
  if ((info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0) return true;
  return ::access(path.c_str(), W_OK) != 0;
}

// Opening balances must fit the ledger's limits, so that every sum the audit computes fits.
Status check_opening_balances(const std::vector<OpeningBalance>& accounts) {
  if (static_cast<int64_t>(accounts.size()) > limits::kMaxAccounts)
    return Status::usage(fmt::format("at most {} accounts", limits::kMaxAccounts));
  int64_t total = 0;
  for (const auto& account : accounts) {
    total += account.amount_minor;  // each is at most kMaxMoneyMinor: this cannot overflow
    if (total > limits::kMaxMoneyMinor)
      return Status::usage(fmt::format("opening balances sum to more than {} (the ledger's limit)",
                                       limits::kMaxMoneyMinor / 100));
  }
  return Status::ok();
}

Status check_parent_folder(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (parent.empty() || std::filesystem::is_directory(parent, error)) return Status::ok();
  return Status::ledger(fmt::format("cannot create {}: no folder {}", path, parent.string()));
}

}  // namespace

// A reader leaves the ledger's folder as it found it. SQLite makes a -wal and a -shm file
// beside a WAL ledger for any connection, and removes them when the last one closes, unless
// that connection was opened read-only. So when neither file is there yet, and the reader could
// write, it opens as a writer would, but query_only: nothing can be written, and its close
// removes what its open made. (With a -wal already there it opens read-only as before: a
// writer's close would checkpoint frames into the file.)
bool reads_as_query_only(const std::string& path, ConnectionOptions* options) {
  if (options->immutable || is_write_protected(path) || file_exists(path + "-wal") ||
      file_exists(path + "-shm"))
    return false;
  options->read_only = false;
  return true;
}

namespace {

void remove_sidecars(const std::string& path) {
  std::remove((path + "-wal").c_str());
  std::remove((path + "-shm").c_str());
  std::remove((path + "-journal").c_str());
}

}  // namespace

Status create_schema(Connection& connection, const std::vector<OpeningBalance>& accounts) {
  RETURN_IF_ERROR(connection.exec_script("BEGIN IMMEDIATE"));
  if (Status status = connection.exec_script(kSchemaSql); !status.is_ok()) {
    connection.rollback_if_open();
    return status;
  }
  for (const auto& account : accounts) {
    StepResult result = connection.query(
        "INSERT INTO account (name, opening_balance_minor, balance_minor) VALUES (:name, "
        ":amount, :amount)",
        {{":name", account.account}, {":amount", account.amount_minor}});
    if (!result.ok()) {
      connection.rollback_if_open();
      if (result.code == StepCode::kConstraint)
        return Status::usage(fmt::format("account {} is listed twice", account.account));
      return step_error(connection, result);
    }
  }
  return connection.exec_script("COMMIT");
}

// --force replaces an idemlab ledger, a damaged one too, and never any other file: a foreign
// database, a document, a folder.
Status check_replaceable(const std::string& path) {
  const Status header = check_ledger_header(path, nullptr);
  if (header.is_ok() || header.is_damaged()) return Status::ok();
  return Status::ledger(fmt::format(
      "{}; --force replaces an idemlab ledger only, so it is left as it is", header.message()));
}

Status create_ledger(const std::string& path, const std::vector<OpeningBalance>& accounts,
                     bool force) {
  Locator locator;
  RETURN_IF_ERROR(parse_locator(path, &locator));
  RETURN_IF_ERROR(check_opening_balances(accounts));
  if (is_server(locator.engine)) return create_server_ledger(locator, accounts, force);
  if (file_exists(path) && !force)
    return Status::ledger(fmt::format("{} already exists; pass --force to replace it", path));
  if (file_exists(path)) RETURN_IF_ERROR(check_replaceable(path));
  RETURN_IF_ERROR(check_parent_folder(path));
  const std::string scratch = fmt::format("{}.init-{}", path, ::getpid());
  remove_sidecars(scratch);
  std::remove(scratch.c_str());
  {
    ConnectionOptions options;
    options.create = true;
    ASSIGN_OR_RETURN(Connection connection, open_sqlite(scratch, options));
    Status status = create_schema(connection, accounts);
    if (status.is_ok()) status = connection.exec_script("PRAGMA journal_mode = WAL");
    if (!status.is_ok()) {
      connection = Connection();
      std::remove(scratch.c_str());
      remove_sidecars(scratch);
      return status;
    }
  }
  if (force) {
    remove_sidecars(path);
    if (std::rename(scratch.c_str(), path.c_str()) != 0) {
      int error = errno;
      std::remove(scratch.c_str());
      return Status::ledger(fmt::format("cannot write {}: {}", path, std::strerror(error)));
    }
    return Status::ok();
  }
  // link() fails if the path appeared meanwhile, so an existing ledger is never replaced.
  int linked = ::link(scratch.c_str(), path.c_str());
  int error = errno;
  std::remove(scratch.c_str());
  if (linked != 0) {
    if (error == EEXIST)
      return Status::ledger(fmt::format("{} already exists; pass --force to replace it", path));
    return Status::ledger(fmt::format("cannot write {}: {}", path, std::strerror(error)));
  }
  return Status::ok();
}

Result<int64_t> check_ledger(Connection& connection, const std::string& path) {
  int64_t application_id = -1;
  int64_t version = -1;
  StepResult result = connection.query("PRAGMA application_id", {},
                                       [&](const Row& row) { application_id = as_int(row[0]); });
  if (result.ok())
    result = connection.query("PRAGMA user_version", {},
                              [&](const Row& row) { version = as_int(row[0]); });
  if (!result.ok()) {
    if (result.code == StepCode::kBusy)
      return Status::busy(fmt::format("{} is locked: {}", path, result.error));
    if (result.code == StepCode::kDamaged)
      return Status::damaged(fmt::format("{} is damaged: {}", path, result.error));
    if (result.code == StepCode::kDiskFull || result.code == StepCode::kIoError)
      return step_error(connection, result);
    return Status::ledger(fmt::format("{} is not an idemlab ledger ({})", path, result.error));
  }
  if (application_id != kApplicationId)
    return Status::ledger(fmt::format("{} is not an idemlab ledger", path));
  if (version > kSchemaVersion)
    return Status::ledger(
        fmt::format("{} has schema version {}, newer than this idemlab understands ({})", path,
                    version, kSchemaVersion));
  if (version < 1) return Status::ledger(fmt::format("{} has no idemlab schema", path));
  return version;
}

// A damaged page or index that a write never reads goes unseen by the header check, so a writer
// checks the file first. integrity_check also compares every index with its table (quick_check
// does not: a row missing from an index passes it); on this machine, best of 7, it takes 0.5 ms
// at 80 KiB, 2.5 ms at 264 KiB, 13 ms at 1 MiB and 67 ms at 4 MiB, against about 7 ms for a
// whole one-attempt process. So it runs up to kIntegrityCheckMaxBytes, where it stays well
// below a process start; quick_check (26 ms at 4 MiB) up to kQuickCheckMaxBytes; past that the
// header check alone guards, and `idemlab audit` checks everything.

// `whole`: integrity_check whatever the size (the header check left the file's size to SQLite).
Status check_before_write(Connection& connection, const std::string& path, bool whole) {
  struct stat info {
  }, wal{};
  if (::stat(path.c_str(), &info) != 0) return Status::ok();
  // In WAL mode the newest pages may sit in the -wal file: count them too.
  const off_t size = info.st_size + (::stat((path + "-wal").c_str(), &wal) == 0 ? wal.st_size : 0);
  if (size > limits::kQuickCheckMaxBytes && !whole) return Status::ok();
  whole |= size <= limits::kIntegrityCheckMaxBytes;
  const char* pragma = whole ? "PRAGMA integrity_check(1)" : "PRAGMA quick_check(1)";
  std::string problem;
  StepResult result = connection.query(pragma, {}, [&](const Row& row) {
    if (as_text(row[0]) != "ok") problem = as_text(row[0]);
  });
  if (!result.ok()) return step_error(connection, result);
  if (!problem.empty())
    return damaged(
        path, fmt::format("SQLite's {}: {}", whole ? "integrity_check" : "quick_check", problem));
  return Status::ok();
}

// A ledger on a read-only filesystem: nobody can change it there, so it is read as immutable (no
// locks, no -shm file, which cannot be made there). A WAL holding changes nobody checkpointed
// is read through its -shm file, read-only, if one was left beside it (SQLite 3.22 and later);
// without one it cannot be read there at all.
Status read_only_filesystem_options(const std::string& path, ConnectionOptions* options) {
  if (!wal_holds_frames(path)) {
    options->immutable = true;
    return Status::ok();
  }
  if (file_exists(path + "-shm")) return Status::ok();
  return Status::ledger(fmt::format(
      "{} is on a read-only filesystem, and its -wal file holds changes nobody checkpointed, "
      "with no -shm file to read them through: copy the ledger with its -wal file to a "
      "writable place to read it",
      path));
}

Result<Connection> open_ledger(const std::string& db, Access access, int busy_timeout_ms,
                               Isolation isolation, bool wait_in_process) {
  Locator locator;
  RETURN_IF_ERROR(parse_locator(db, &locator));
  return open_ledger(locator, access, busy_timeout_ms, isolation, wait_in_process);
}

Result<Connection> open_ledger(const Locator& locator, Access access, int busy_timeout_ms,
                               Isolation isolation, bool wait_in_process) {
  const std::string& path = locator.path;
  if (access == Access::kWrite && locator.topology.kind == TopologyKind::kCandidates &&
      !session_takes_writes(locator.topology.session))
    return Status::usage(fmt::format(
        "{} names {} hosts: add target_session_attrs=read-write, so that writes reach the one "
        "that is the primary now",
        locator.shown, locator.topology.members()));
  if (is_server(locator.engine)) {
    ConnectionOptions options;
    options.busy_timeout_ms = busy_timeout_ms;
    options.isolation = isolation;
    options.causal_reads = access == Access::kRead;
    return open_server_ledger(locator, options);
  }
  if (!file_exists(path))
    return Status::ledger(
        fmt::format("no ledger at {}; create one with: idemlab init --db {}", path, path));
  if (is_folder(path))
    return Status::ledger(fmt::format("{} is a folder, not a ledger file", path));
  if (access == Access::kWrite && is_write_protected(path))
    return Status::ledger(fmt::format("ledger {} is read-only", path));
  // A writer refuses a damaged file before SQLite writes to it; audit (a reader) opens it to
  // report what is wrong. A file shorter than its header while its WAL holds frames is judged
  // by SQLite's integrity_check, read with the WAL, whatever its size.
  bool size_left_to_sqlite = false;
  if (access == Access::kWrite) RETURN_IF_ERROR(check_ledger_header(path, &size_left_to_sqlite));
  ConnectionOptions options;
  options.read_only = access == Access::kRead;
  options.busy_timeout_ms = busy_timeout_ms;
  options.wait_in_process = wait_in_process;
  if (access == Access::kRead && on_read_only_filesystem(path))
    RETURN_IF_ERROR(read_only_filesystem_options(path, &options));
  const bool leaves_no_sidecars = access == Access::kRead && reads_as_query_only(path, &options);
  ASSIGN_OR_RETURN(Connection connection, open_sqlite(path, options));
  if (leaves_no_sidecars) RETURN_IF_ERROR(connection.exec_script("PRAGMA query_only = 1"));
  ASSIGN_OR_RETURN(const int64_t version, check_ledger(connection, path));
  if (access == Access::kWrite)
    RETURN_IF_ERROR(check_before_write(connection, path, size_left_to_sqlite));
  if (version < kSchemaVersion) {
    // An older ledger is upgraded on first open, by any command; a reader upgrades it through
    // a writer and then reads the upgraded file.
    if (access == Access::kRead) {
      if (is_write_protected(path))
        return Status::ledger(fmt::format(
            "{} has schema version {} and is read-only: make it writable once, and idemlab "
            "upgrades it to version {}",
            path, version, kSchemaVersion));
      connection = Connection();
      RETURN_IF_ERROR(open_ledger(path, Access::kWrite, busy_timeout_ms).status());
      return open_ledger(path, Access::kRead, busy_timeout_ms);
    }
    RETURN_IF_ERROR(migrate_ledger(connection, version));
  }
  return connection;
}

}  // namespace idemlab
