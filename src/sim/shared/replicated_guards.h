// ReplicatedGuards: the store that keeps a simulated run's tokens and locks apart from its
// ledger when the run has a failover fault: a primary with an asynchronous replica, in memory
// and deterministic. Each is a scratch SQLite database run by the same guard statements the
// ledger runs (a token is consumed by the same UPDATE, a lock taken by the same INSERT), each
// on its own, at once, as Redis runs a command. Every write the primary makes is queued with
// the virtual time it was made (its ":now") and applied to the replica once it is `lag_ms`
// old. failover() promotes the replica: the writes still queued are lost, as a Redis primary's
// unreplicated writes are lost when Sentinel promotes its replica, and a new replica starts as
// a full copy of the new primary, as Redis resynchronises one.
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "db/connection.h"
#include "db/guard_store.h"
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
  std::string_view statement_text(Stmt id) const override {
    return primary_.connection.statement_text(id);
  }
  void set_trace(TraceSink sink) override { primary_.connection.set_trace(std::move(sink)); }
  const std::string& location() const override { return location_; }

  // The primary dies at `now_ms`; the replica, with every write made before now_ms - lag_ms
  // (lag_ms at most the store's own), takes its place. Returns how many writes were lost.
  Result<int64_t> failover(int64_t now_ms, int64_t lag_ms);
  // Forgets every token and lock (explore: between interleavings).
  Status reset();

 private:
  struct Database {
    std::unique_ptr<ScratchLedger> ledger;
    Connection connection;
  };
  struct Write {
    int64_t at_ms;
    Stmt stmt;
    Binds binds;
  };
  // Applies to the replica every queued write made before `before_ms`.
  Status replicate(int64_t before_ms);
  static Status start_empty(Database* database);

  Database primary_;
  Database replica_;
  int64_t lag_ms_ = 0;
  std::deque<Write> queued_;  // made on the primary, not yet on the replica
  std::string location_ = "the guard store (a primary and its replica, in the simulator)";
};

}  // namespace idemlab
