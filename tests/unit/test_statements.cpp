// Tests for db/statements: every named statement prepares against the schema.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include "db/schema/ledger_file.h"
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
