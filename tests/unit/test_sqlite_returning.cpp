// Tests for db/sqlite/sqlite_backend: an insert whose RETURNING gives only its row's id runs
// without the clause on SQLite, and answers what the clause would.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "flow_row.h"
#include "scratch.h"

using namespace idemlab;
using idemlab::test::flow_binds;
using idemlab::test::LedgerFile;

namespace {

// The id of the oldest flow row of `biz_seq`, as a read finds it.
int64_t flow_id(Connection& connection, const char* biz_seq) {
  const StepResult found =
      connection.run(Stmt::kSelectFlow, {{":source", "api"}, {":biz_seq", biz_seq}});
  REQUIRE(found.ok());
  REQUIRE(found.row.has_value());
  return as_int(found.row->at(0));
}

// What the clause itself returns: the statement's SQL, RETURNING and all, run as a query.
std::vector<Row> returned_by_clause(Connection& connection, Stmt stmt, const Binds& binds) {
  std::vector<Row> rows;
  const StepResult result =
      connection.query(statement_sql(stmt), binds, [&](const Row& row) { rows.push_back(row); });
  REQUIRE(result.ok());
  return rows;
}

}  // namespace

TEST_CASE("an insert returns the id of the row it made, and no row when it made none") {
  LedgerFile ledger;
  Connection connection = ledger.open();
  const StepResult first = connection.run(Stmt::kInsertFlow, flow_binds("r1"));
  REQUIRE(first.ok());
  REQUIRE(first.row.has_value());
  CHECK(as_int(first.row->at(0)) == flow_id(connection, "r1"));

  // The twin finds the row: nothing inserted, no row (the engine's last id is still r1's).
  const StepResult twin = connection.run(Stmt::kInsertFlowIfAbsent, flow_binds("r1"));
  REQUIRE(twin.ok());
  CHECK(twin.changes == 0);
  CHECK_FALSE(twin.row.has_value());

  const StepResult second = connection.run(Stmt::kInsertFlowIfAbsent, flow_binds("r2"));
  REQUIRE(second.ok());
  REQUIRE(second.row.has_value());
  CHECK(as_int(second.row->at(0)) == flow_id(connection, "r2"));

  // An upsert that updates keeps its clause: the row it returns is the one it found.
  const StepResult upsert = connection.run(Stmt::kUpsertFlow, flow_binds("r1"));
  REQUIRE(upsert.ok());
  REQUIRE(upsert.row.has_value());
  CHECK(as_int(upsert.row->at(0)) == flow_id(connection, "r1"));

  // The same as the clause answers, both ways.
  CHECK(returned_by_clause(connection, Stmt::kInsertFlowIfAbsent, flow_binds("r2")).empty());
  const std::vector<Row> third =
      returned_by_clause(connection, Stmt::kInsertFlowIfAbsent, flow_binds("r3"));
  REQUIRE(third.size() == 1);
  CHECK(as_int(third[0].at(0)) == flow_id(connection, "r3"));
  const StepResult fourth = connection.run(Stmt::kInsertFlow, flow_binds("r4"));
  REQUIRE(fourth.row.has_value());
  CHECK(as_int(fourth.row->at(0)) == as_int(third[0].at(0)) + 1);
}
