// ledger=galera in explore on SQLite: one run's ledger as the simulator's Galera cluster
// (sim/shared/galera_model.h), which the run's Replicas own and feed from their write-set log;
// each twin on the next node.
// A COMMIT is certified before it runs; a read (with sync-wait=1) and an autocommit write (with
// retry-autocommit=1, as the simulator runs it) first wait for their node's applier. After each
// step the appliers apply what is due: every commit at once, or, for a fault point's
// `apply_lag_ms`, each that many ms (statements) after it: the simulator's apply-ms.
//
// A whole write transaction stays one step (explore.h): while one is open on a node, that
// node's applier waits for its write lock, so nothing another node commits meanwhile changes
// what it sees; whether it read or began before that node applied the other's commit is what
// the lag decides, and certification judges.
// Internal to src/sim/explore/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/explore/explore.h"
#include "sim/shared/galera_model.h"
#include "sim/shared/replicas.h"
#include "sim/shared/write_set_log.h"

namespace idemlab {

class RunCluster {
 public:
  bool on() const { return nodes_ > 0; }
  // The cluster over `ledger`, opened in `replicas` (which outlive it), `connections[0]` on its
  // first node; every other connection is replaced by one to node i % nodes. `apply_lag_ms`:
  // the fault point's (-1: at once).
  Status open(Replicas& replicas, const ScratchLedger& ledger, const ExploreConfig& config,
              Pitfall pitfall, int apply_lag_ms, std::vector<Connection>* connections);
  int node_of(const Connection& connection) const { return model_->node_of(connection); }

  // Before `step`, pending on `connection`: where it must, its node catches up first. Then a
  // COMMIT the cluster does not certify (or, without the retry, an autocommit write it would
  // refuse) is rolled back, and the result to hand the attempt is returned instead.
  std::optional<StepResult> before(Connection& connection, const PendingStep& step);
  // After a step at `now_ms`: the appliers apply what they may. `notes` (if not null) gets a
  // line for each node that applied something.
  void after(int64_t now_ms, std::vector<std::string>* notes);
  // The run's end: every node applies everything, so that the journal is judged whole.
  Status finish() { return model_->apply_all(); }
  // Whether an applier applied a commit, its lag after it, before the run ended.
  bool lag_landed() const { return lag_landed_; }

 private:
  int nodes_ = 0;
  bool lagged_ = false;  // the appliers lag
  bool lag_landed_ = false;
  WriteSetLog* writes_ = nullptr;
  GaleraModel* model_ = nullptr;
};

}  // namespace idemlab
