// Tests for db/statements: every named statement prepares against the schema.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include "db/schema/ledger_file.h"
#include "db/sqlite/sqlite_backend.h"
#include "db/statements.h"

using namespace idemlab;

TEST_CASE("every named statement prepares against the embedded schema") {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, kSchemaSql, nullptr, nullptr, nullptr) == SQLITE_OK);
  for (int i = 0; i < static_cast<int>(Stmt::kCount); ++i) {
    auto id = static_cast<Stmt>(i);
    CAPTURE(statement_name(id));
    std::string_view sql = statement_sql(id);
    sqlite3_stmt* stmt = nullptr;
    CHECK(sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) ==
          SQLITE_OK);
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
}

TEST_CASE("writes and BEGIN IMMEDIATE take the write lock; reads do not") {
  CHECK(statement_takes_write_lock(Stmt::kBeginImmediate));
  CHECK(statement_takes_write_lock(Stmt::kInsertFlow));
  CHECK(statement_takes_write_lock(Stmt::kDebit));
  CHECK_FALSE(statement_takes_write_lock(Stmt::kSelectFlow));
  CHECK_FALSE(statement_takes_write_lock(Stmt::kBeginDeferred));
}

TEST_CASE("check_fence takes a grant's fence only when it is higher than any seen for the lock") {
  ConnectionOptions options;
  options.create = true;
  Connection ledger = value_or_throw(open_sqlite(":memory:", options));
  REQUIRE(ledger.exec_script(kSchemaSql).is_ok());
  const auto fence = [&](const char* name, int64_t number, const char* owner) {
    StepResult result = ledger.run(Stmt::kCheckFence, {{":name", std::string(name)},
                                                       {":fence", number},
                                                       {":owner", std::string(owner)},
                                                       {":now", int64_t{1}}});
    REQUIRE(result.ok());
    return result.changes;
  };
  CHECK(fence("transfer:api:a", 5, "first") == 1);  // the first grant seen
  CHECK(fence("transfer:api:a", 7, "twin") == 1);   // a later grant
  CHECK(fence("transfer:api:a", 5, "first") == 0);  // the stale holder resumes: refused
  CHECK(fence("transfer:api:a", 7, "other") == 0);  // the same number again (a fence gone back)
  CHECK(fence("transfer:api:b", 1, "first") == 1);  // each lock its own
}
