// ReplicatedGuards: the store that keeps a simulated run's tokens and locks apart from its
// ledger when the run has a failover fault: a primary with an asynchronous replica, in memory
// and deterministic. The primary is a scratch ledger of its own, run by the same guard
// statements the ledger runs (a token is consumed by the same UPDATE, a lock taken by the same
// INSERT), each on its own, at once, as Redis runs a command. Every write is logged with the
// virtual time it was made (its ":now"); the replica holds the writes older than its lag.
// failover() promotes the replica: the store is rebuilt from that part of the log, and the
// writes made since are lost, as a Redis primary's unreplicated writes are lost when Sentinel
// promotes its replica.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "db/connection.h"
#include "db/guard_store.h"
#include "sim/shared/scratch_ledger.h"

namespace idemlab {

class ReplicatedGuards final : public GuardStore {
 public:
  ReplicatedGuards() = default;
  ReplicatedGuards(const ReplicatedGuards&) = delete;
  ReplicatedGuards& operator=(const ReplicatedGuards&) = delete;

  static Status create(ReplicatedGuards* out);

  StepResult run(Stmt id, const Binds& binds) override;
  std::string_view statement_text(Stmt id) const override { return connection_.statement_text(id); }
  void set_trace(TraceSink sink) override { connection_.set_trace(std::move(sink)); }
  const std::string& location() const override { return location_; }

  // The primary dies at `now_ms`; the replica, which has every write made before
  // now_ms - lag_ms, takes its place. Returns how many writes were lost.
  Result<int64_t> failover(int64_t now_ms, int64_t lag_ms);
  // Forgets every token and lock, and the log (explore: between interleavings).
  Status reset();

 private:
  struct Write {
    int64_t at_ms;
    Stmt stmt;
    Binds binds;
  };
  // A fresh, empty store.
  Status start();

  std::unique_ptr<ScratchLedger> store_;
  Connection connection_;
  std::vector<Write> log_;
  std::string location_ = "the guard store (a primary and its replica, in the simulator)";
};

}  // namespace idemlab
