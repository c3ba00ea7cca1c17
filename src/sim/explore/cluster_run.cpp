// One explore run's Galera cluster: nodes, certification before a COMMIT, held appliers.
#include "sim/explore/cluster_run.h"

#include "core/check.h"
#include "db/statement_tables.h"

namespace idemlab {

Status RunCluster::open(Replicas& replicas, const ScratchLedger& ledger,
                        const ExploreConfig& config, Pitfall pitfall, int apply_lag_ms,
                        std::vector<Connection>* connections) {
  nodes_ = config.galera_nodes;
  lagged_ = apply_lag_ms > 0;
  GaleraSettings settings;
  settings.nodes = nodes_;
  settings.causal_reads = config.causal_reads;
  settings.flow_unique = pitfall != Pitfall::kNoUniqueIndex;
  settings.retry_autocommit = config.retry_autocommit;
  settings.apply_ms = lagged_ ? apply_lag_ms : 0;
  RETURN_IF_ERROR(replicas.open_cluster(settings, ledger, (*connections)[0]));
  model_ = replicas.cluster();
  writes_ = replicas.log();
  for (size_t i = 1; i < connections->size(); ++i) {
    const int node = static_cast<int>(i) % nodes_;
    ASSIGN_OR_RETURN((*connections)[i], model_->connect(node));
    model_->place(&(*connections)[i], node);
  }
  return Status::ok();
}

std::optional<StepResult> RunCluster::before(Connection& connection, const PendingStep& step) {
  const Stmt stmt = step.stmt;
  if (model_->waits_for_applier(connection, stmt))
    IDEMLAB_CHECK(model_->apply_for_read(node_of(connection)),
                  "between explore's steps no transaction holds a node's write lock");
  const bool refused = stmt == Stmt::kCommit ? !model_->certify(connection)
                                             : model_->refuses_autocommit(connection, step);
  if (!refused) return std::nullopt;
  connection.rollback_if_open();
  writes_->rolled_back(connection);
  return certification_failure();
}

void RunCluster::after(int64_t now_ms, std::vector<std::string>* notes) {
  std::vector<int64_t> before(static_cast<size_t>(nodes_));
  for (int node = 0; node < nodes_; ++node)
    before[static_cast<size_t>(node)] = model_->applied(node);
  model_->apply_due(now_ms);
  for (int node = 0; node < nodes_; ++node) {
    const int64_t after = model_->applied(node);
    if (after == before[static_cast<size_t>(node)]) continue;
    lag_landed_ |= lagged_;
    if (notes) notes->push_back(applied_text(node, before[static_cast<size_t>(node)], after));
  }
}

}  // namespace idemlab
