// Tests for sim/shared/galera_model: nodes of their own, certification at COMMIT, appliers that
// apply a commit a lag later, and causal reads.
#include <doctest/doctest.h>

#include "flow_row.h"
#include "sim/shared/galera_model.h"

using namespace idemlab;

namespace {

// Runs `stmt` on `connection` and shows it to the write-set log the cluster follows, as
// Stepper::on_run does.
StepResult run_on(WriteSetLog& log, Connection& connection, Stmt stmt, Binds binds,
                  int64_t now = 0) {
  PendingStep step{"step", stmt, std::move(binds), {}};
  step.result = connection.run(stmt, step.binds);
  log.ran(connection, step, now);
  return step.result;
}
Binds debit_binds() {
  return {{":from", "alice"}, {":amount", int64_t{10}}};
}
int64_t alice(Connection& connection) {
  int64_t balance = -1;
  (void)connection.query("SELECT balance_minor FROM account WHERE name = 'alice'", {},
                         [&](const Row& row) { balance = as_int(row[0]); });
  return balance;
}

// A cluster of two nodes (apply_ms behind each other), and a connection to each.
struct Cluster {
  explicit Cluster(int64_t apply_ms) {
    REQUIRE(ScratchLedger::create({{"alice", 100}, {"bob", 0}}, &ledger, &control).is_ok());
    REQUIRE(model.open(ledger, control, GaleraSettings{2, apply_ms, false, true}, &log).is_ok());
    for (int node = 0; node < 2; ++node) {
      Result<Connection> connection = model.connect(node);
      REQUIRE(connection.is_ok());
      nodes[node] = std::move(connection).value();
      model.place(&nodes[node], node);
    }
  }
  ScratchLedger ledger;
  Connection control;
  WriteSetLog log;
  GaleraModel model;
  Connection nodes[2];
};

}  // namespace

TEST_CASE("twins on two nodes: neither waits, and the second COMMIT is refused") {
  Cluster cluster(0);
  GaleraModel& model = cluster.model;
  for (Connection& node : cluster.nodes) {
    REQUIRE(run_on(cluster.log, node, Stmt::kBeginImmediate, {}).ok());  // locks stop at the node
    REQUIRE(run_on(cluster.log, node, Stmt::kDebit, debit_binds()).ok());
  }
  CHECK(model.certify(cluster.nodes[0]));
  REQUIRE(run_on(cluster.log, cluster.nodes[0], Stmt::kCommit, {}).ok());
  CHECK_FALSE(model.certify(cluster.nodes[1]));  // node 1 committed a write to alice since
  CHECK(model.certification_failures() == 1);
  cluster.nodes[1].rollback_if_open();
  model.apply_due(0);
  CHECK(alice(cluster.nodes[1]) == 90);  // node 2 applied node 1's commit
}

TEST_CASE("a lagging applier: a stale read, then a transaction begun after it caught up") {
  Cluster cluster(100);
  GaleraModel& model = cluster.model;
  REQUIRE(
      run_on(cluster.log, cluster.nodes[0], Stmt::kDebit, debit_binds(), 10).ok());  // autocommit
  model.apply_due(50);
  CHECK(alice(cluster.nodes[1]) == 100);  // stale: due at 110
  model.apply_due(110);
  CHECK(alice(cluster.nodes[1]) == 90);
  REQUIRE(run_on(cluster.log, cluster.nodes[1], Stmt::kBeginImmediate, {}).ok());
  REQUIRE(run_on(cluster.log, cluster.nodes[1], Stmt::kDebit, debit_binds(), 111).ok());
  CHECK(model.certify(cluster.nodes[1]));  // it began after its node applied the first
}

TEST_CASE("a causal read applies everything first, unless the node's write lock is taken") {
  Cluster cluster(100000);
  GaleraModel& model = cluster.model;
  REQUIRE(run_on(cluster.log, cluster.nodes[0], Stmt::kDebit, debit_binds(), 10).ok());
  Result<Connection> other = model.connect(1);
  REQUIRE(other.is_ok());
  REQUIRE(other->run(Stmt::kBeginImmediate, {}).ok());  // a transaction on node 2 holds it
  CHECK_FALSE(model.apply_for_read(1));
  other->rollback_if_open();
  CHECK(model.apply_for_read(1));
  CHECK(alice(cluster.nodes[1]) == 90);
  CHECK(model.applied(1) == 1);
}

namespace {

int64_t flow_status(Connection& connection, const char* biz_seq) {
  int64_t status = -1;
  (void)connection.query("SELECT status FROM transfer_flow WHERE biz_seq = :biz_seq",
                         {{":biz_seq", biz_seq}}, [&](const Row& row) { status = as_int(row[0]); });
  return status;
}

}  // namespace

TEST_CASE("each node numbers its own flows, and a write naming one by id finds it everywhere") {
  Cluster cluster(0);
  Connection& first = cluster.nodes[0];
  Connection& second = cluster.nodes[1];
  // Both nodes give their first flow id 1; node 1 then gives node 2's flow id 2, and node 2
  // gives node 1's flow id 2.
  REQUIRE(run_on(cluster.log, first, Stmt::kInsertFlow, test::flow_binds("r1", 1)).ok());
  StepResult inserted = run_on(cluster.log, second, Stmt::kInsertFlow, test::flow_binds("r2", 1));
  REQUIRE(inserted.ok());
  REQUIRE(inserted.row.has_value());
  const int64_t id_on_second = as_int(inserted.row->at(0));
  cluster.model.apply_due(0);
  REQUIRE(flow_status(first, "r2") == 1);
  REQUIRE(flow_status(second, "r1") == 1);
  const Binds finish = {{":flow_id", id_on_second},
                        {":status", int64_t{2}},
                        {":outcome", "applied"},
                        {":reason", Value{}},
                        {":now", int64_t{1}}};
  REQUIRE(run_on(cluster.log, second, Stmt::kFinishFlow, finish).ok());
  cluster.model.apply_due(1);
  CHECK(flow_status(first, "r2") == 2);  // the id node 1 gave it, not node 2's
  CHECK(flow_status(first, "r1") == 1);  // node 1's flow of the same id untouched
}
