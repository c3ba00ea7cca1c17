// Tests for db/ledger_file: creating and opening ledgers, and refusing what is not one.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "db/schema/migrate.h"
#include "db/sqlite/sqlite_backend.h"
#include "scratch.h"

using namespace idemlab;
using idemlab::test::LedgerFile;

TEST_CASE("a new ledger holds the opening balances") {
  LedgerFile ledger({{"alice", 500}, {"bob", 7}});
  CHECK(ledger.scalar("SELECT sum(balance_minor) FROM account") == 507);
  CHECK(ledger.scalar("PRAGMA user_version") == kSchemaVersion);
  CHECK(ledger.scalar("PRAGMA application_id") == kApplicationId);
}

// Two processes can open an old ledger at once: each reads its version, and the second to take
// the write lock finds the file upgraded by the first. Here the version read is stale for sure.
TEST_CASE("an upgrade reads the version again under the write lock") {
  LedgerFile ledger({{"alice", 500}, {"bob", 7}});
  Connection connection = open_ledger(ledger.path(), Access::kWrite, 1000).value();
  REQUIRE(migrate_ledger(connection, 1).is_ok());  // read as version 1, upgraded meanwhile
  CHECK(ledger.scalar("PRAGMA user_version") == kSchemaVersion);
  CHECK(ledger.scalar("SELECT sum(balance_minor) FROM account") == 507);
  CHECK(ledger.scalar("SELECT count(*) FROM transfer_flow") == 0);
}

TEST_CASE("init refuses an existing file without force and keeps it intact") {
  LedgerFile ledger({{"alice", 500}});
  Status status = create_ledger(ledger.path(), {{"zed", 1}}, false);
  CHECK(status.code() == StatusCode::kLedger);
  CHECK(ledger.scalar("SELECT count(*) FROM account WHERE name = 'alice'") == 1);
  CHECK(create_ledger(ledger.path(), {{"zed", 1}}, true).is_ok());
  CHECK(ledger.scalar("SELECT count(*) FROM account WHERE name = 'zed'") == 1);
}

TEST_CASE("a duplicate account at init is a usage error and leaves no file") {
  LedgerFile ledger;
  std::string path = ledger.folder() + "/dup.db";
  CHECK(create_ledger(path, {{"a", 1}, {"a", 2}}, false).code() == StatusCode::kUsage);
  struct stat info {};
  CHECK(::stat(path.c_str(), &info) != 0);
}

TEST_CASE("opening refuses a missing file, a non-ledger, a newer schema and a read-only file") {
  LedgerFile ledger;
  CHECK(open_ledger(ledger.folder() + "/missing.db", Access::kRead, 0).status().code() ==
        StatusCode::kLedger);

  std::string text = ledger.folder() + "/notes.txt";
  std::ofstream(text) << "this is not a database, just some text that is long enough\n";
  CHECK(open_ledger(text, Access::kWrite, 0).status().code() == StatusCode::kLedger);

  std::string plain = ledger.folder() + "/plain.db";
  {
    ConnectionOptions options;
    options.create = true;
    Result<Connection> other = open_sqlite(plain, options);
    REQUIRE(other.is_ok());
    REQUIRE(other->exec_script("CREATE TABLE t (x)").is_ok());
  }
  CHECK(open_ledger(plain, Access::kWrite, 0).status().code() == StatusCode::kLedger);

  {
    Connection writer = ledger.open();
    REQUIRE(writer.exec_script("PRAGMA user_version = 99").is_ok());
  }
  Status newer = open_ledger(ledger.path(), Access::kWrite, 0).status();
  CHECK(newer.code() == StatusCode::kLedger);
  CHECK(newer.message().find("newer") != std::string::npos);

  LedgerFile read_only;
  REQUIRE(::chmod(read_only.path().c_str(), 0444) == 0);
  CHECK(open_ledger(read_only.path(), Access::kWrite, 0).status().code() == StatusCode::kLedger);
  CHECK(open_ledger(read_only.path(), Access::kRead, 0).is_ok());
}

namespace {

// Whether another process could take the write lock SQLite's readers share on `path` (the
// shared range after its pending byte): asked from a child, as fcntl locks of one's own process
// never conflict.
bool another_process_sees_shared_lock(const std::string& path) {
  const pid_t child = ::fork();
  if (child == 0) {
    const int fd = ::open(path.c_str(), O_RDWR);
    struct flock probe {};
    probe.l_type = F_WRLCK;
    probe.l_whence = SEEK_SET;
    probe.l_start = 0x40000000 + 2;  // SQLite's SHARED_FIRST
    probe.l_len = 510;               // SHARED_SIZE
    const bool held = fd >= 0 && ::fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
    ::_exit(held ? 0 : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

TEST_CASE("opening a ledger again in one process keeps the locks its open connections hold") {
  LedgerFile ledger;
  Connection first = ledger.open();
  REQUIRE(first.exec_script("BEGIN").is_ok());
  REQUIRE(first.query("SELECT count(*) FROM account", {}).ok());  // a read holds a shared lock
  REQUIRE(another_process_sees_shared_lock(ledger.path()));
  // A second writer's open checks the file's header before SQLite opens it: never through a
  // descriptor of its own, whose close would drop the first connection's locks.
  Connection second = ledger.open();
  CHECK(another_process_sees_shared_lock(ledger.path()));
  first.rollback_if_open();
}
