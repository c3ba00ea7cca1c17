// Tests for sim/shared/lagging_replica: a read replica of a scratch ledger that applies each
// commit a lag after the primary made it, and the reads that go to it.
#include <doctest/doctest.h>

#include "core/clock.h"
#include "flow_row.h"
#include "sim/shared/lagging_replica.h"

using namespace idemlab;
using test::flow_binds;

namespace {

Binds token_binds(int64_t now) {
  return {{":token", "t1"}, {":now", now}, {":expires", int64_t{60000}}};
}
// Runs `stmt` on `connection` and shows it to the write-set log the replica follows, as
// Stepper::on_run does.
void run_and_ship(WriteSetLog& log, Connection& connection, Stmt stmt, Binds binds, int64_t now) {
  PendingStep step{"step", stmt, std::move(binds), {}};
  step.result = connection.run(stmt, step.binds);
  REQUIRE(step.result.ok());
  log.ran(connection, step, now);
}
bool has_token(StatementRunner& runner, const char* token = "t1") {
  StepResult found = runner.run(Stmt::kSelectToken, {{":token", token}, {":now", int64_t{0}}});
  REQUIRE(found.ok());
  return found.row.has_value();
}

// A ledger, its replica `lag_ms` behind, and a transaction inserting a token begun on it.
struct Begun {
  explicit Begun(int64_t lag_ms) {
    REQUIRE(ScratchLedger::create({{"alice", 100}}, &ledger, &primary).is_ok());
    REQUIRE(LaggingReplica::create(primary, lag_ms, &replica).is_ok());
    log.follow(&replica);
    run_and_ship(log, primary, Stmt::kBeginImmediate, {}, 10);
    run_and_ship(log, primary, Stmt::kInsertToken, token_binds(10), 10);
  }
  // Token t2, inserted outside a transaction at `now`.
  void insert_second(int64_t now) {
    Binds second = token_binds(now);
    second[0].value = "t2";
    run_and_ship(log, primary, Stmt::kInsertToken, second, now);
  }
  ScratchLedger ledger;
  Connection primary;
  LaggingReplica replica;
  WriteSetLog log;
};

}  // namespace

TEST_CASE("a replica applies a commit a lag after it, and read-your-writes waits for none") {
  Begun begun(1000);
  LaggingReplica& replica = begun.replica;
  Connection& primary = begun.primary;
  CHECK(replica.caught_up());  // nothing committed yet
  run_and_ship(begun.log, primary, Stmt::kCommit, {}, 12);
  CHECK_FALSE(replica.caught_up());

  ManualClock clock(500);
  std::unique_ptr<ReadSplit> reads = replica_reads(replica, primary, clock, false);
  CHECK_FALSE(has_token(*reads));  // 500 ms: the commit made at 12 has not arrived
  CHECK(reads->last_on_standby());
  std::unique_ptr<ReadSplit> own = replica_reads(replica, primary, clock, true);
  CHECK(has_token(*own));  // read-your-writes: the replica is behind, the primary answers
  CHECK_FALSE(own->last_on_standby());
  clock.advance_ms(512);  // 1012: applied
  CHECK(has_token(*reads));
  CHECK(replica.caught_up());
}

TEST_CASE("a rolled-back transaction never reaches the replica") {
  Begun begun(0);
  LaggingReplica& replica = begun.replica;
  run_and_ship(begun.log, begun.primary, Stmt::kRollback, {}, 11);
  CHECK(replica.caught_up());
  REQUIRE(replica.catch_up(100).is_ok());
  CHECK_FALSE(has_token(replica.connection()));
}

TEST_CASE("at a failover the replica keeps what it had received, and never gets the rest") {
  Begun begun(5);
  LaggingReplica& replica = begun.replica;
  Connection& primary = begun.primary;
  run_and_ship(begun.log, primary, Stmt::kCommit, {}, 12);  // token t1, committed at 12
  begun.insert_second(20);
  CHECK(replica.behind() == 2);

  replica.drop_unreceived(21, 5);  // received what was made before 16
  CHECK(replica.caught_up());
  CHECK(has_token(replica.connection()));
  CHECK_FALSE(has_token(replica.connection(), "t2"));
}

TEST_CASE("a replica whose link is cut receives the commits before the cut and none after") {
  Begun begun(0);
  LaggingReplica& replica = begun.replica;
  Connection& primary = begun.primary;
  replica.cut_after(1);
  run_and_ship(begun.log, primary, Stmt::kCommit, {}, 12);  // t1: the one commit received
  run_and_ship(begun.log, primary, Stmt::kBeginImmediate, {}, 13);
  run_and_ship(begun.log, primary, Stmt::kCommit, {}, 14);  // changed nothing: not a commit
  CHECK_FALSE(replica.missed());
  begun.insert_second(20);  // after the cut
  CHECK(replica.missed());
  REQUIRE(replica.catch_up(100).is_ok());
  CHECK(has_token(replica.connection()));
  CHECK_FALSE(has_token(replica.connection(), "t2"));
}

TEST_CASE("a paused replay applies nothing until it resumes, and a failover ends the pause") {
  Begun begun(0);
  LaggingReplica& replica = begun.replica;
  replica.pause(5, 100);  // stops at 5, before the commit; resumes at 105
  run_and_ship(begun.log, begun.primary, Stmt::kCommit, {}, 12);
  REQUIRE(replica.catch_up(50).is_ok());
  CHECK_FALSE(has_token(replica.connection()));
  replica.pause(60, 100);  // paused already: it now resumes at 160
  REQUIRE(replica.catch_up(120).is_ok());
  CHECK_FALSE(has_token(replica.connection()));
  CHECK_FALSE(replica.caught_up());
  REQUIRE(replica.catch_up(160).is_ok());
  CHECK(has_token(replica.connection()));

  Begun again(0);
  again.replica.pause(5, 1000);
  run_and_ship(again.log, again.primary, Stmt::kCommit, {}, 12);
  again.replica.drop_unreceived(20, 0);  // promoted: it replays what it received first
  CHECK(has_token(again.replica.connection()));
}

TEST_CASE("a write applied as a replica applies it returns no row, and writes the same row") {
  // ... and the engine names the row it inserted (what a Galera node's applier reads).
  ScratchLedger ledger;
  Connection primary;
  REQUIRE(ScratchLedger::create({{"alice", 100}, {"bob", 0}}, &ledger, &primary).is_ok());
  StepResult returned = primary.run(Stmt::kInsertFlow, flow_binds("r1"));
  REQUIRE(returned.ok());
  CHECK(returned.row.has_value());  // RETURNING id
  StepResult applied = primary.apply(Stmt::kInsertFlow, flow_binds("r2"));
  REQUIRE(applied.ok());
  CHECK(applied.changes == 1);
  CHECK_FALSE(applied.row.has_value());
  StepResult read = primary.run(Stmt::kSelectFlow, {{":source", "api"}, {":biz_seq", "r2"}});
  REQUIRE(read.ok());
  REQUIRE(read.row.has_value());
  CHECK(as_int(read.row->at(0)) == as_int(returned.row->at(0)) + 1);
  CHECK(primary.last_insert_id() == as_int(read.row->at(0)));
  StepResult twin = primary.apply(Stmt::kInsertFlowIfAbsent, flow_binds("r2"));
  REQUIRE(twin.ok());
  CHECK(twin.changes == 0);  // nothing inserted: the id above is no row of this statement's
}

TEST_CASE("a flow the primary inserted reads on the replica with the primary's id") {
  ScratchLedger ledger;
  Connection primary;
  REQUIRE(ScratchLedger::create({{"alice", 100}, {"bob", 0}}, &ledger, &primary).is_ok());
  LaggingReplica replica;
  REQUIRE(LaggingReplica::create(primary, 5, &replica).is_ok());
  WriteSetLog log;
  log.follow(&replica);
  run_and_ship(log, primary, Stmt::kInsertFlow, flow_binds("r1"), 10);
  run_and_ship(log, primary, Stmt::kBeginImmediate, {}, 11);
  run_and_ship(log, primary, Stmt::kInsertFlow, flow_binds("r2"), 11);
  run_and_ship(log, primary, Stmt::kCommit, {}, 11);
  // Read as a read split reads it: a flow write waits on the replica for the read of its request.
  ManualClock clock(100);
  std::unique_ptr<ReadSplit> reads = replica_reads(replica, primary, clock, false);
  for (const char* key : {"r1", "r2"}) {
    const Binds by_key = {{":source", "api"}, {":biz_seq", key}};
    StepResult on_primary = primary.run(Stmt::kSelectFlow, by_key);
    StepResult on_replica = reads->run(Stmt::kSelectFlow, by_key);
    REQUIRE(on_primary.ok());
    REQUIRE(on_replica.ok());
    REQUIRE(on_replica.row.has_value());
    CHECK(*on_replica.row == *on_primary.row);
  }
}
