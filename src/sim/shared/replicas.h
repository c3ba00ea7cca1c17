// Replicas: every replica of one simulated or explored run, and the failovers that promote
// them. It owns the ledger's write-set log and what follows it (the standby a read split
// reads, the nodes of a Galera cluster), the undo log that makes a failover of the ledger what
// a promoted standby holds (db/sqlite/undo_log.h), and the guard store with its replica
// (guards=replica, and explore's --failover). No other part of a run keeps a replica, and no
// follower is fed but through the log.
#pragma once

#include <memory>

#include "core/clock.h"
#include "db/connection.h"
#include "db/sqlite/undo_log.h"
#include "sim/shared/galera_model.h"
#include "sim/shared/lagging_replica.h"
#include "sim/shared/replicated_guards.h"
#include "sim/shared/scratch_ledger.h"
#include "sim/shared/write_set_log.h"

namespace idemlab {

class Replicas {
 public:
  Replicas() = default;
  Replicas(const Replicas&) = delete;
  Replicas& operator=(const Replicas&) = delete;

  // guards=replica: tokens and locks go to a store whose replica is `lag_ms` behind.
  Status open_guards(int64_t lag_ms);
  // ledger=standby on the scratch ledger `primary` reaches, `lag_ms` behind: with
  // `fails_over`, what a failover would lose is kept (the undo log watches `primary` and every
  // connection watch() is given); with `read`, a lagging copy of the tables a read split reads.
  Status open_standby(const Clock& clock, int64_t lag_ms, bool fails_over, bool read,
                      Connection& primary);
  // ledger=galera: `ledger` (reached by `client`) is node 1, and the other nodes are copies.
  Status open_cluster(const GaleraSettings& settings, const ScratchLedger& ledger,
                      Connection& client);
  // A new connection to the standby's primary: a failover undoes its commits too.
  Status watch(Connection& connection) { return undo_ ? undo_->watch(connection) : Status::ok(); }

  // Each null until its open_ call.
  ReplicatedGuards* guards() { return guards_.get(); }
  LaggingReplica* read_standby() { return standby_.get(); }
  GaleraModel* cluster() { return cluster_.get(); }
  // The log the ledger's followers hear; null when nothing follows it.
  WriteSetLog* log() { return log_.followed() ? &log_ : nullptr; }
  // With `fails_over`: the ledger's commits that changed a row so far.
  int64_t ledger_commits() const { return undo_ ? undo_->recorded() : 0; }

  // The guard store's primary dies at `now_ms`; its replica, `lag_ms` behind, takes over.
  // Returns the writes it lacked.
  int64_t fail_over_guards(int64_t now_ms, int64_t lag_ms);
  // The ledger's primary dies at `now_ms` (its open transactions cut already); its standby,
  // `lag_ms` behind, takes over: the commits it lacked are undone through `client`, the read
  // standby applies what it had received and no more, and the log forgets the transactions
  // under way. Returns the commits lost.
  int64_t fail_over_ledger(Connection& client, int64_t now_ms, int64_t lag_ms);

 private:
  WriteSetLog log_;
  std::unique_ptr<LaggingReplica> standby_;   // reads=standby: the standby that is read
  std::unique_ptr<UndoLog> undo_;             // a failover of the ledger: what it would lose
  std::unique_ptr<GaleraModel> cluster_;      // ledger=galera: the ledger's nodes
  std::unique_ptr<ReplicatedGuards> guards_;  // guards=replica
};

}  // namespace idemlab
