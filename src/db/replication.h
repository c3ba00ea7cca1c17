// Reading from a standby, by the engine's traits (engine.h) and never by its name: where the
// primary's log stands after a commit, whether a standby has replayed past it (read-your-writes),
// and whether a server given as a standby really replays the ledger it is said to.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"
#include "db/connection.h"

namespace idemlab {

// Where an attempt ran, opaque to the layers above db/: the node that served it on a cluster
// (as the node names itself, "node2"), once it applied the commit position a standby must
// replay past to show it, and the server that kept its guards when their URL names several
// (the Sentinels' primary, "127.0.0.1:6380"). Each is empty where the topology has no such thing.
struct WhereRan {
  std::string node;
  std::string commit_position;
  std::string guard_node;
  std::string guard_node_role;  // what guard_node is to the others ("the Sentinels' primary")
};

// Where `connection` serves now; with `applied`, the commit position too (a failed read leaves
// it empty: the answer stands without it).
WhereRan where_ran(Connection& connection, bool applied);

// " at 0/3000060", " on node2", " (guards on 127.0.0.1:6380, the Sentinels' primary)", or
// nothing: for a log line.
std::string where_ran_text(const WhereRan& where);

// The guards' part of where_ran_text alone, or "".
std::string guard_node_text(const WhereRan& where);

// Whether the engine has a standby idemlab can read from and check (--read-db).
bool has_readable_standby(Engine engine);

// The primary's log position now ("0/3000060"), past every commit made on it before: what a
// client keeps to read its own writes. "" where the engine has none.
Status commit_position(Connection& primary, std::string* position);

// Whether `standby` has replayed its log at least to `position`, and how far it has.
Status replayed_past(Connection& standby, const std::string& position, bool* past,
                     std::string* replayed);

// A log position as PostgreSQL writes one: at most 8 hexadecimal digits, a slash, at most 8.
bool is_commit_position(std::string_view text);

// Before connecting: whether `standby` can name a standby of the ledger `ledger` names (an
// engine with a readable standby, the same engine); a usage error naming --read-db otherwise.
Status check_standby_url(const Locator& ledger, const Locator& standby);

// Checks, before any read goes there, that `standby` replays the ledger `primary` holds: it is
// in recovery (a server that takes writes is a primary, the ledger's own or another's), its log
// is the primary's (the same system identifier), and it is the same database. Otherwise a usage
// error saying which, naming both without passwords; nothing has been read or written.
Status check_standby(Connection& primary, Connection& standby);

}  // namespace idemlab
