// ReplicatedGuards: the store that keeps a simulated run's tokens and locks apart from its
// ledger when the run has a failover fault: a primary with an asynchronous replica, in memory
// and deterministic. The primary is a scratch SQLite database run by the same guard statements
// the ledger runs (a token is consumed by the same UPDATE, a lock taken by the same INSERT),
// each on its own, at once, as Redis runs a command. The replica holds every write the primary
// made more than `lag_ms` ago (each write's time is its ":now"), and nothing newer. It is not
// kept as a second database: failover() undoes on the primary the writes the replica lacked
// (db/sqlite/undo_log.h), as a Redis primary's unreplicated writes are lost when Sentinel
// promotes its replica. A new replica then starts as a full copy of the new primary, as Redis
// resynchronises one. Each lock granted carries a fence, a number that grows with every grant
// (lock-table --fence); unlike a Redis INCR, it does not go back at a failover.
#pragma once

#include <memory>
#include <string>

#include "core/clock.h"
#include "db/connection.h"
#include "db/guard_store.h"
#include "db/sqlite/undo_log.h"
#include "sim/shared/scratch_ledger.h"

namespace idemlab {

class ReplicatedGuards final : public GuardStore {
 public:
  ReplicatedGuards() = default;
  ReplicatedGuards(const ReplicatedGuards&) = delete;
  ReplicatedGuards& operator=(const ReplicatedGuards&) = delete;

  // `lag_ms`: how far the replica is behind, the most any failover of the run asks for.
  static Status create(int64_t lag_ms, ReplicatedGuards* out);

  StepResult run(Stmt id, const Binds& binds) override;
  std::string_view statement_text(Stmt id) const override { return connection_.statement_text(id); }
  void set_trace(TraceSink sink) override { connection_.set_trace(std::move(sink)); }
  const std::string& location() const override { return location_; }

  // The primary dies at `now_ms`; the replica, with every write made before now_ms - lag_ms
  // (lag_ms at most the store's own), takes its place. Returns how many writes were lost.
  Result<int64_t> failover(int64_t now_ms, int64_t lag_ms);

 private:
  int64_t lag_ms_ = 0;
  int64_t grants_ = 0;  // locks granted: the last grant's fence (it never goes back)
  ManualClock clock_;   // the newest write's time: its ":now"
  // In this order: the log lets go of the connection, the connection of the database.
  std::unique_ptr<ScratchLedger> primary_;
  Connection connection_;
  std::unique_ptr<UndoLog> unreplicated_;  // the primary's writes the replica may lack
  std::string location_ = "the guard store (a primary and its replica, in the simulator)";
};

}  // namespace idemlab
