// ReusedLedger: one copy of explore's template ledger and its connections, used by run after
// run and put back as the template holds it in between. A fresh copy costs more than the run
// on it: each new connection parses the schema and prepares its statements again (about 60% of
// an explore on SQLite). An undo log (db/sqlite/undo_log.h) watches the connections, and a reset
// rolls back what a run left open and undoes every commit it made, newest first: the same rows,
// row ids included, as a fresh copy (ids are taken as the largest plus one; no table uses
// AUTOINCREMENT). A run that replicates the ledger gets a fresh copy instead: its standby's
// undo log watches the connections of its own.
#pragma once

#include <memory>
#include <vector>

#include "core/clock.h"
#include "db/connection.h"
#include "db/sqlite/undo_log.h"
#include "sim/shared/scratch_ledger.h"

namespace idemlab {

class ReusedLedger {
 public:
  // The ledger as `from` (a connection to the template) holds it, with `count` connections
  // to it, for the first run; each later call puts it back so and hands the same connections.
  Result<std::vector<Connection>> take(Connection& from, size_t count);
  // A run is done with the connections take() handed (their addresses kept): the next take()
  // resets what the run did through them.
  void give_back(std::vector<Connection>&& connections);

 private:
  Status open(Connection& from, size_t count);
  Status reset();

  ScratchLedger ledger_;
  ManualClock clock_;             // the undo log's, never advanced: no commit is ever forgotten
  std::unique_ptr<UndoLog> log_;  // set once open
  // The connection that undoes, of its own and with foreign keys off: checking them at the
  // undo's commit (PRAGMA defer_foreign_keys) expires every statement the connection has
  // prepared, and a run's connection then parsed its statements and the audit's queries again
  // on each run (62% of `explore --strategy state-machine --crash` was SQLite's parser).
  Connection undoer_;
  std::vector<Connection> connections_;  // empty while a run holds them, or before the first
};

}  // namespace idemlab
