// Output files (--trace-sql, and every later --out): opened only where writing cannot harm a
// ledger or any other database.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "core/status.h"

namespace idemlab {

using OutputFile = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

// Opens `path` for writing, truncating it. Refuses (usage error) a path that is the ledger at
// `ledger_path` or its -wal, -shm or -journal file, by name or through a symbolic or hard link,
// any existing SQLite database, and a -wal, -shm or -journal file beside one. Call it before the
// ledger is opened, so that a bad path fails before anything runs.
Status open_output_file(const std::string& option, const std::string& path,
                        const std::string& ledger_path, OutputFile* out);

// Flushes and closes what open_output_file opened. A write that failed on a full disk (ENOSPC,
// EDQUOT) is a retryable error (disk_full) saying the file is incomplete; any other, internal.
Status close_output_file(const std::string& option, const std::string& path, OutputFile* file);

// What write_whole_file will need of `path` (the guard, and a folder that takes a new file),
// checked before the work whose result goes there, so that a bad path fails before it runs.
Status check_whole_file_target(const std::string& option, const std::string& path,
                               const std::string& ledger_path = "");

// Writes `contents` to `path` whole or not at all: beside it first, then moved into place. A
// full disk is a retryable error (disk_full) saying nothing was written; a path that cannot be
// written, a usage error. The same guard as open_output_file's: never a ledger or a database.
Status write_whole_file(const std::string& option, const std::string& path,
                        std::string_view contents, const std::string& ledger_path = "");

}  // namespace idemlab
