// A ledger file's header, read without SQLite before anything writes to the file: the magic
// string, the page size, the application id, the fields SQLite's format fixes, and a size that
// holds every page the header counts. Cheap, and never while a connection of this process has
// the file open (db/sqlite/open_files.h).
#pragma once

#include <string>

#include "core/status.h"

namespace idemlab {

// A damaged ledger's error, naming the file and what is wrong, and how to see more.
Status damaged(const std::string& path, const std::string& why);

// Whether `path`'s -wal file holds frames (more than its 32-byte header): then the newest pages
// of the ledger may live there, and the main file can be shorter than its header says.
bool wal_holds_frames(const std::string& path);

bool is_folder(const std::string& path);

// Reads the file's header without SQLite: the magic string, a possible page size, the
// application id, and a size that holds every page the header counts. Cheap; run before any
// write, so that a truncated or foreign file is refused rather than written to.
// A main file shorter than its header says is not damage while the -wal file holds frames (the
// newest pages are there, e.g. after a checkpoint a full disk cut short): then the check leaves
// the size to SQLite, and says so in `size_left_to_sqlite`.
Status check_ledger_header(const std::string& path, bool* size_left_to_sqlite = nullptr);

}  // namespace idemlab
