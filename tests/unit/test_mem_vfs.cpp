// Tests for db/mem_vfs: connections to one name share one database with SQLite's WAL rules (a
// plain read sees the last committed snapshot, writers serialise), a database past its budget
// spills to a file and reads back the same, and what the VFS holds passes SQLite's own
// integrity check. The simulator's audit skips that check on these ledgers; this is where it is
// made instead.
#include <doctest/doctest.h>

#include <string>

#include "db/connection.h"
#include "db/sqlite/mem_vfs.h"
#include "db/sqlite/sqlite_backend.h"

using namespace idemlab;

namespace {

int64_t scalar(Connection& connection, const char* sql) {
  int64_t value = -1;
  StepResult result = connection.query(sql, {}, [&](const Row& row) { value = as_int(row[0]); });
  REQUIRE(result.ok());
  return value;
}

std::string text(Connection& connection, const char* sql) {
  std::string value;
  StepResult result = connection.query(sql, {}, [&](const Row& row) { value = as_text(row[0]); });
  REQUIRE(result.ok());
  return value;
}

// A name of its own, removed at the end; connections to it with no busy wait.
class MemLedger {
 public:
  explicit MemLedger(const char* name) : name_(name) {}
  ~MemLedger() { mem_vfs_remove(name_); }
  Connection open(bool create = false) const {
    ConnectionOptions options;
    options.uri = true;
    options.create = create;
    options.busy_timeout_ms = 0;
    Result<Connection> connection = open_sqlite(mem_vfs_uri(name_), options);
    REQUIRE(connection.is_ok());
    return std::move(connection).value();
  }

 private:
  std::string name_;
};

constexpr int64_t kNoSpill = 1LL << 40;

}  // namespace

TEST_CASE("mem vfs: a plain read sees the last commit while another connection writes") {
  REQUIRE(register_mem_vfs(kNoSpill).is_ok());
  MemLedger ledger("test-snapshot.db");
  Connection writer = ledger.open(true);
  REQUIRE(writer
              .exec_script("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER);"
                           "INSERT INTO t VALUES (1);")
              .is_ok());
  Connection reader = ledger.open();
  Connection other = ledger.open();
  REQUIRE(writer.exec_script("BEGIN IMMEDIATE; INSERT INTO t VALUES (2);").is_ok());
  CHECK(scalar(reader, "SELECT count(*) FROM t") == 1);               // the open write is not seen
  CHECK(other.query("BEGIN IMMEDIATE", {}).code == StepCode::kBusy);  // writers serialise
  REQUIRE(writer.exec_script("COMMIT").is_ok());
  CHECK(scalar(reader, "SELECT count(*) FROM t") == 2);
  CHECK(other.query("BEGIN IMMEDIATE", {}).ok());
  CHECK(other.query("ROLLBACK", {}).ok());
}

TEST_CASE("mem vfs: a read transaction keeps its snapshot across another's commit") {
  REQUIRE(register_mem_vfs(kNoSpill).is_ok());
  MemLedger ledger("test-read-txn.db");
  Connection writer = ledger.open(true);
  REQUIRE(writer.exec_script("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER);").is_ok());
  Connection reader = ledger.open();
  REQUIRE(reader.exec_script("BEGIN; SELECT count(*) FROM t;").is_ok());
  REQUIRE(writer.exec_script("INSERT INTO t VALUES (1)").is_ok());
  CHECK(scalar(reader, "SELECT count(*) FROM t") == 0);
  // Upgrading the stale read transaction to a write one is refused, as on disk.
  CHECK(reader.query("INSERT INTO t VALUES (2)", {}).code == StepCode::kBusySnapshot);
  REQUIRE(reader.exec_script("ROLLBACK").is_ok());
  CHECK(scalar(reader, "SELECT count(*) FROM t") == 1);
}

TEST_CASE("mem vfs: past its budget a database spills to a file and reads back the same") {
  REQUIRE(register_mem_vfs(256 * 1024).is_ok());
  {
    MemLedger ledger("test-spill.db");
    Connection writer = ledger.open(true);
    REQUIRE(writer
                .exec_script("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER, pad TEXT);"
                             "CREATE INDEX t_x ON t (x);")
                .is_ok());
    Connection reader = ledger.open();
    for (int batch = 0; batch < 40; ++batch) {
      REQUIRE(writer
                  .exec_script("BEGIN; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
                               "FROM n WHERE i < 100) INSERT INTO t SELECT i, "
                               "printf('%.200c', 'x') FROM n; COMMIT;")
                  .is_ok());
      if (batch % 10 == 9) REQUIRE(writer.exec_script("PRAGMA wal_checkpoint(TRUNCATE)").is_ok());
    }
    CHECK(scalar(writer, "PRAGMA page_count") * scalar(writer, "PRAGMA page_size") > 256 * 1024);
    CHECK(scalar(reader, "SELECT count(*) FROM t") == 4000);
    CHECK(scalar(reader, "SELECT sum(x) FROM t") == 40 * 5050);
    CHECK(text(reader, "PRAGMA integrity_check") == "ok");
    // A spilled file that shrinks (VACUUM) drops what its read cache held past the new end.
    REQUIRE(writer.exec_script("DELETE FROM t WHERE x > 50; VACUUM;").is_ok());
    CHECK(scalar(reader, "SELECT count(*) FROM t") == 2000);
    CHECK(scalar(reader, "SELECT sum(x) FROM t") == 40 * 1275);
    CHECK(text(reader, "PRAGMA integrity_check") == "ok");
    // Grown again past the cut, the file's new blocks are cached as they are written (zeros
    // past what a write covers), and each checkpoint's truncate to the size it has keeps them.
    for (int batch = 0; batch < 20; ++batch) {
      REQUIRE(writer
                  .exec_script("BEGIN; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
                               "FROM n WHERE i < 100) INSERT INTO t SELECT i + 100, "
                               "printf('%.300c', 'y') FROM n; COMMIT;")
                  .is_ok());
      REQUIRE(writer.exec_script("PRAGMA wal_checkpoint(FULL)").is_ok());
      CHECK(scalar(reader, "SELECT count(*) FROM t") == 2000 + 100 * (batch + 1));
    }
    CHECK(scalar(reader, "SELECT sum(x) FROM t") == 40 * 1275 + 20 * (100 * 100 + 5050));
    CHECK(text(reader, "PRAGMA integrity_check") == "ok");
  }
  REQUIRE(register_mem_vfs(kNoSpill).is_ok());
}

TEST_CASE("mem vfs: many connections' interleaved commits leave an intact database") {
  REQUIRE(register_mem_vfs(kNoSpill).is_ok());
  MemLedger ledger("test-integrity.db");
  Connection first = ledger.open(true);
  REQUIRE(first
              .exec_script("PRAGMA journal_mode = WAL; CREATE TABLE t (k TEXT PRIMARY KEY, "
                           "n INTEGER); PRAGMA wal_autocheckpoint = 50;")
              .is_ok());
  std::vector<Connection> connections;
  for (int i = 0; i < 4; ++i) connections.push_back(ledger.open());
  for (int i = 0; i < 2000; ++i) {
    Connection& connection = connections[static_cast<size_t>(i % 4)];
    StepResult inserted =
        connection.query("INSERT INTO t VALUES (:k, :n) ON CONFLICT (k) DO UPDATE SET n = n + 1",
                         {{":k", "key" + std::to_string(i * 7919 % 1000)}, {":n", int64_t{1}}});
    REQUIRE(inserted.ok());
  }
  CHECK(scalar(first, "SELECT count(*) FROM t") == 1000);
  CHECK(scalar(first, "SELECT sum(n) FROM t") == 2000);
  CHECK(text(connections[3], "PRAGMA integrity_check") == "ok");
}
