// Tests for db/sqlite/undo_log: the commits a failover loses, undone on the primary, leave it
// holding exactly what it held before them.
#include <doctest/doctest.h>

#include <string>

#include "core/clock.h"
#include "db/sqlite/undo_log.h"
#include "sim/shared/scratch_ledger.h"

using namespace idemlab;

namespace {

void sql(Connection& connection, const std::string& text, bool ok = true) {
  const StepResult result = connection.query(text, {});
  REQUIRE(result.ok() == ok);
}

// Every row of every table, in key order: what two ledgers must agree on.
std::string rows(Connection& connection) {
  std::string out;
  for (const char* table : {"account", "transfer_flow", "journal", "dedup", "token"}) {
    const StepResult result = connection.query(
        std::string("SELECT * FROM ") + table + " ORDER BY 1", {}, [&](const Row& row) {
          out += table;
          for (const Value& value : row) out += " " + as_text(value);
          out += "\n";
        });
    REQUIRE(result.ok());
  }
  return out;
}

std::string flow(int id, int status) {
  return "INSERT INTO transfer_flow (id, biz_seq, from_account, to_account, amount_minor, "
         "status, unique_key, strategy, created_at_ms, updated_at_ms) VALUES (" +
         std::to_string(id) + ", 'b" + std::to_string(id) + "', 'alice', 'bob', 5, " +
         std::to_string(status) + ", 1, 'test', 0, 0)";
}

// A ledger, two connections to it, and the log watching both.
struct Watched {
  explicit Watched(int64_t keep_ms) : log(clock, keep_ms) {
    REQUIRE(ScratchLedger::create({{"alice", 100}, {"bob", 0}}, &ledger, &primary).is_ok());
    Result<Connection> second = ledger.connect();
    REQUIRE(second.is_ok());
    other = std::move(second).value();
    REQUIRE(log.watch(primary).is_ok());
    REQUIRE(log.watch(other).is_ok());
  }
  ManualClock clock;
  ScratchLedger ledger;
  Connection primary;
  Connection other;
  UndoLog log;
};

}  // namespace

TEST_CASE("a failover undoes what the standby had not received, and keeps the rest") {
  Watched run(5);
  run.clock.set_ms(12);
  sql(run.primary, "BEGIN IMMEDIATE");
  sql(run.primary, "INSERT INTO token VALUES ('t1', 12, 60000, NULL, NULL, NULL)");
  sql(run.primary, "COMMIT");
  run.clock.set_ms(20);
  sql(run.other, "INSERT INTO token VALUES ('t2', 20, 60000, NULL, NULL, NULL)");  // autocommit
  CHECK(run.log.commits() == 1);   // t1 is forgotten: no failover from 20 on can lose it
  CHECK(run.log.recorded() == 2);  // ... but counted

  Result<int64_t> undone = run.log.undo_since(run.primary, 21 - 5);  // made before 16: kept
  REQUIRE(undone.is_ok());
  CHECK(undone.value() == 1);
  CHECK(rows(run.primary).find("token t1 ") != std::string::npos);
  CHECK(rows(run.primary).find("token t2 ") == std::string::npos);
  CHECK(run.log.commits() == 0);
  CHECK(run.log.recorded() == 2);
}

TEST_CASE("a synchronous standby loses nothing") {
  Watched run(1000);
  run.clock.set_ms(12);
  sql(run.primary, "INSERT INTO token VALUES ('t1', 12, 60000, NULL, NULL, NULL)");
  Result<int64_t> undone = run.log.undo_since(run.primary, 12 + 1);
  REQUIRE(undone.is_ok());
  CHECK(undone.value() == 0);
  CHECK(rows(run.primary).find("token t1 ") != std::string::npos);
}

TEST_CASE("undone, the ledger holds row for row what it held at the cut") {
  Watched run(1000);
  run.clock.set_ms(1);
  sql(run.primary, flow(1, 2));  // before the cut: kept
  sql(run.primary, "INSERT INTO dedup VALUES ('k0', 'api', 'b0', 'test', 'p', 0)");
  ScratchLedger copy;
  REQUIRE(ScratchLedger::copy(run.primary, &copy).is_ok());
  Result<Connection> at_cut = copy.connect();
  REQUIRE(at_cut.is_ok());

  run.clock.set_ms(10);  // after the cut: every kind of change, on both connections
  sql(run.primary, "BEGIN IMMEDIATE");
  sql(run.primary, flow(2, 1));
  sql(run.primary, "UPDATE account SET balance_minor = balance_minor - 5 WHERE name = 'alice'");
  sql(run.primary, "UPDATE account SET balance_minor = balance_minor + 5 WHERE name = 'bob'");
  sql(run.primary, flow(1, 1), false);  // a statement that fails leaves nothing to undo
  sql(run.primary, "UPDATE transfer_flow SET status = 2, version = 1 WHERE id = 2");
  sql(run.primary, "COMMIT");
  sql(run.other, "BEGIN IMMEDIATE");
  sql(run.other, "DELETE FROM transfer_flow WHERE id = 1");
  sql(run.other, "ROLLBACK");  // a rolled-back transaction: nothing to undo
  run.clock.set_ms(11);
  sql(run.other, "DELETE FROM dedup WHERE dedup_key = 'k0'");
  sql(run.other, "INSERT INTO dedup VALUES ('k1', 'api', 'b1', 'test', 'p', 11)");
  sql(run.other, "UPDATE account SET balance_minor = 0 WHERE name = 'alice'");
  sql(run.other, "DELETE FROM transfer_flow WHERE id = 1");
  sql(run.other, "UPDATE dedup SET dedup_key = 'k2' WHERE dedup_key = 'k1'");  // a key changes
  REQUIRE(rows(run.primary) != rows(at_cut.value()));

  Result<int64_t> undone = run.log.undo_since(run.other, 5);
  REQUIRE(undone.is_ok());
  CHECK(undone.value() == 6);
  CHECK(rows(run.primary) == rows(at_cut.value()));
  sql(run.primary, flow(2, 1));  // the id a lost insert took is free again, as on the standby
}

TEST_CASE("a connection kept for undoing, foreign keys off, undoes run after run") {
  Watched run(1000);
  Result<Connection> opened = run.ledger.connect();
  REQUIRE(opened.is_ok());
  Connection undoer = std::move(opened).value();
  REQUIRE(undoer.exec_script("PRAGMA foreign_keys = OFF").is_ok());
  REQUIRE(run.log.watch(undoer).is_ok());
  sql(run.primary, "INSERT INTO dedup VALUES ('k0', 'api', 'b0', 'test', 'p', 0)");
  const std::string start = rows(run.primary);
  for (int round = 1; round <= 3; ++round) {  // the undo's statements, prepared once, reused
    run.clock.set_ms(round * 10);
    sql(run.primary, "BEGIN IMMEDIATE");
    sql(run.primary, flow(round, 2));
    sql(run.primary, "UPDATE account SET balance_minor = balance_minor - 5 WHERE name = 'alice'");
    sql(run.primary, "COMMIT");
    sql(run.other, "DELETE FROM dedup WHERE dedup_key = 'k0'");
    sql(run.other, "INSERT INTO dedup VALUES ('k" + std::to_string(round) +
                       "', 'api', 'b1', 'test', 'p', 11)");
    REQUIRE(rows(run.primary) != start);
    Result<int64_t> undone = run.log.undo_since(undoer, round * 10);
    REQUIRE(undone.is_ok());
    CHECK(undone.value() == 3);
    CHECK(rows(run.primary) == start);
  }
}
