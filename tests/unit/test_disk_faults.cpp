// Tests for a full disk and failing I/O under one attempt, in the manner of SQLite's ioerr.test
// and diskfull.test: for each safe strategy, the Nth write, sync or truncate of an attempt (its
// ledger opened, its statements, its attempts log, the checkpoint when it closes) fails, for
// every N the attempt reaches, as a full disk and as an I/O error, once or from then on. Each
// attempt answers applied with its transfer committed, or busy (disk_full) or an error with
// nothing committed, or, where a sync failed under its COMMIT, timeout (io_error_at_commit):
// committed or not, which the retry finds out. Then, the fault gone, the ledger opens, a retry
// of the same request moves the money exactly once, and the audit is clean.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "fault_vfs.h"
#include "ledger/audit.h"
#include "strategies/strategy.h"
#include "strategy_harness.h"

using namespace idemlab;
using namespace idemlab::test;

namespace {

constexpr int64_t kStartMs = 1'000'000;

struct Template {
  LedgerFile ledger;
  std::string token;  // a token issued into it, for the token strategy
  Template() {
    Connection connection = ledger.open();
    ManualClock clock(kStartMs);
    token = fresh_token(connection, clock, 3'600'000);
  }
};

// What one attempt did under a fault: its answer, or the error that stopped it first.
struct Outcome_ {
  Status opened;
  Answer answer;
};

Outcome_ attempt(const std::string& path, const Strategy& strategy, const std::string& token,
                 int64_t now_ms) {
  Outcome_ out;
  Result<Connection> connection = open_ledger(path, Access::kWrite, 0);
  out.opened = connection.status();
  if (!connection.is_ok()) return out;
  ManualClock clock(now_ms);
  AttemptSetup setup;
  setup.strategy = &strategy;
  setup.request = request("full-1");
  setup.options.token = token;
  setup.options.owner = "t";
  setup.options.lock_ttl_ms = 1000;
  AttemptReport report;
  out.opened = run_direct_attempt(*connection, clock, setup, &report);
  out.answer = report.answer;
  return out;  // the connection closes here: its checkpoint is among the operations counted
}

int64_t pairs_in(const std::string& path) {
  Result<Connection> connection = open_ledger(path, Access::kRead, 0);
  REQUIRE_MESSAGE(connection.is_ok(), connection.status().message());
  return journal_pairs(*connection, "full-1");
}

// What the attempt under the fault may have left: 0 or 1 transfers, as its answer says.
void check_answer(const Outcome_& out, int64_t pairs) {
  if (!out.opened.is_ok()) {  // stopped before an answer: a full disk, or the disk failing
    CHECK_MESSAGE(out.opened.message().find("damaged") == std::string::npos, out.opened.message());
    CHECK(pairs == 0);
    return;
  }
  const Answer& answer = out.answer;
  CAPTURE(outcome_name(answer.outcome));
  CAPTURE(answer.reason);
  if (answer.outcome == Outcome::kApplied) {
    CHECK(pairs == 1);
  } else if (answer.outcome == Outcome::kTimeout) {
    CHECK(answer.reason == reason::kIoErrorAtCommit);
    CHECK(pairs <= 1);
  } else {
    const bool full = answer.outcome == Outcome::kBusy && answer.reason == reason::kDiskFull;
    const bool failed = answer.outcome == Outcome::kError &&
                        answer.reason.find("the disk failed") != std::string::npos;
    CHECK((full || failed));
    CHECK(pairs == 0);
  }
}

// The fault gone: the ledger opens, the same request retried moves the money once in all, and
// the audit finds nothing.
void check_after(const std::string& path, const Strategy& strategy, const std::string& token) {
  const Outcome_ retried = attempt(path, strategy, token, kStartMs + 10'000);  // locks expired
  REQUIRE_MESSAGE(retried.opened.is_ok(), retried.opened.message());
  CHECK(retried.answer.outcome == Outcome::kApplied);
  CHECK(pairs_in(path) == 1);
  Result<Connection> connection = open_ledger(path, Access::kRead, 0);
  REQUIRE(connection.is_ok());
  AuditSettings settings;
  settings.now_ms = kStartMs + 10'000;
  AuditReport audit;
  REQUIRE(audit_ledger(*connection, settings, &audit).is_ok());
  CHECK(audit.ok());
}

// Writes, syncs and truncates of one attempt without a fault.
int64_t operations_of(FaultVfs& vfs, const Template& base, const Strategy& strategy) {
  const std::string path = base.ledger.folder() + "/count.db";
  std::filesystem::copy_file(base.ledger.path(), path);
  vfs.arm(0, FaultVfs::Failure::kFull, false);
  REQUIRE(attempt(path, strategy, base.token, kStartMs).answer.outcome == Outcome::kApplied);
  const int64_t counted = vfs.counted();
  std::filesystem::remove(path);
  return counted;
}

}  // namespace

TEST_CASE(
    "every write, sync and truncate of an attempt fails in turn, and no money is lost or doubled") {
  Template base;
  FaultVfs vfs;
  for (const Strategy* strategy : all_strategies()) {
    if (!strategy->info().guarded) continue;
    CAPTURE(strategy->info().name);
    const int64_t operations = operations_of(vfs, base, *strategy);
    REQUIRE(operations > 3);
    int case_number = 0;
    for (const auto failure : {FaultVfs::Failure::kFull, FaultVfs::Failure::kIoError})
      for (const bool persistent : {false, true})
        for (int64_t nth = 1; nth <= operations; ++nth) {
          CAPTURE(nth);
          CAPTURE(persistent);
          CAPTURE(failure == FaultVfs::Failure::kFull ? "full" : "io error");
          const std::string path =
              fmt::format("{}/case-{}.db", base.ledger.folder(), ++case_number);
          std::filesystem::copy_file(base.ledger.path(), path);
          vfs.arm(nth, failure, persistent);
          const Outcome_ out = attempt(path, *strategy, base.token, kStartMs);
          CHECK(vfs.fired());
          vfs.disarm();
          check_answer(out, pairs_in(path));
          check_after(path, *strategy, base.token);
          for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
        }
  }
}
