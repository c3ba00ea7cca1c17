// Read-your-writes on a PostgreSQL standby: where the primary's WAL stands after a commit, and
// whether a standby has replayed past it. A standby that has not is behind the client's own
// write, and its "not found" says nothing; the primary is asked instead.
#pragma once

#include <string>

#include "core/status.h"
#include "db/connection.h"

namespace idemlab {

// The primary's WAL position now ("0/3000060"), at or past any commit this connection made:
// what a client keeps to read its own writes. "" on an engine with no such position.
Status wal_position(Connection& primary, std::string* lsn);

// Whether `standby` has replayed WAL at least up to `lsn`, and how far it has (`replayed`).
Status replayed_past(Connection& standby, const std::string& lsn, bool* past,
                     std::string* replayed);

// A WAL position as PostgreSQL writes one: hexadecimal, a slash, hexadecimal.
bool is_wal_position(std::string_view text);

}  // namespace idemlab
