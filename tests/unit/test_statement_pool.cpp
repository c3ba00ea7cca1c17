// Tests for db/sqlite/statement_pool: connections lent a statement at a time behave as
// connections of their own, and a run of statements outside transactions needs only one.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "db/sqlite/statement_pool.h"
#include "sim/shared/scratch_ledger.h"

using namespace idemlab;

namespace {

struct Pooled {
  Pooled() {
    REQUIRE(ScratchLedger::create({{"alice", 100}, {"bob", 0}}, &ledger, &first).is_ok());
    Result<std::unique_ptr<StatementPool>> made =
        StatementPool::create([this] { return ledger.connect(); });
    REQUIRE(made.is_ok());
    pool = std::move(made).value();
  }
  int64_t balance(Connection& connection, const char* account) {
    int64_t found = -1;
    const StepResult read = connection.query("SELECT balance_minor FROM account WHERE name = :name",
                                             {{":name", std::string(account)}},
                                             [&](const Row& row) { found = as_int(row[0]); });
    REQUIRE(read.ok());
    return found;
  }
  ScratchLedger ledger;
  Connection first;
  std::unique_ptr<StatementPool> pool;
};

constexpr const char* kDebit =
    "UPDATE account SET balance_minor = balance_minor - 1 WHERE name = 'alice'";

}  // namespace

TEST_CASE("statements outside a transaction take turns on one connection") {
  Pooled run;
  Connection a = run.pool->connect(), b = run.pool->connect(), c = run.pool->connect();
  for (int i = 0; i < 3; ++i)
    for (Connection* connection : {&a, &b, &c}) REQUIRE(connection->query(kDebit, {}).ok());
  CHECK(run.balance(b, "alice") == 91);
  CHECK(run.pool->opened() == 1);
  CHECK_FALSE(a.in_transaction());
}

TEST_CASE("a transaction keeps its connection, and its lock, until it ends") {
  Pooled run;
  Connection a = run.pool->connect(), b = run.pool->connect();
  REQUIRE(a.exec_script("BEGIN IMMEDIATE").is_ok());
  CHECK(a.in_transaction());
  REQUIRE(a.query(kDebit, {}).ok());
  CHECK(b.query(kDebit, {}).code == StepCode::kBusy);  // another connection, the lock taken
  CHECK(run.balance(b, "alice") == 100);               // the last commit, not a's write
  CHECK(run.balance(a, "alice") == 99);                // a's own transaction
  CHECK(run.pool->opened() == 2);
  REQUIRE(a.exec_script("COMMIT").is_ok());
  CHECK_FALSE(a.in_transaction());
  REQUIRE(b.query(kDebit, {}).ok());
  CHECK(run.balance(a, "alice") == 98);
}

TEST_CASE("a transaction rolled back, or whose connection closes, lets its connection go") {
  Pooled run;
  Connection a = run.pool->connect(), b = run.pool->connect();
  REQUIRE(a.exec_script("BEGIN IMMEDIATE").is_ok());
  REQUIRE(a.query(kDebit, {}).ok());
  a.rollback_if_open();
  CHECK_FALSE(a.in_transaction());
  REQUIRE(b.exec_script("BEGIN IMMEDIATE").is_ok());
  REQUIRE(b.query(kDebit, {}).ok());
  b = Connection();  // closed holding it: the transaction ends with the pool's connection
  Connection c = run.pool->connect();
  CHECK(run.balance(c, "alice") == 100);
  CHECK(run.pool->opened() == 1);
}
