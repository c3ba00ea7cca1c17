// Tests for sim/shared/write_set_log: the write sets a ledger's connections commit, captured
// once from the statements they ran and handed to every follower at the COMMIT.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/shared/scratch_ledger.h"
#include "sim/shared/write_set_log.h"

using namespace idemlab;

namespace {

// A follower that writes down what it hears.
struct Notes final : WriteSetFollower {
  void began(const Connection&) override { heard.push_back("began"); }
  void wrote(const Connection&, const LoggedWrite& write) override {
    heard.push_back(std::string("wrote ") + (write.returned_id ? "with an id" : "a row"));
  }
  void committed(WriteSet&& set) override {
    heard.push_back("committed " + std::to_string(set.writes.size()) + " at " +
                    std::to_string(set.at_ms));
  }
  void ended(const Connection&) override { heard.push_back("ended"); }
  std::vector<std::string> heard;
};

// A ledger, one connection to it, and a log two followers follow.
struct Followed {
  Followed() {
    REQUIRE(ScratchLedger::create({{"alice", 100}, {"bob", 0}}, &ledger, &connection).is_ok());
    log.follow(&first);
    log.follow(&second);
  }
  StepResult run(Stmt stmt, Binds binds, int64_t now = 0) {
    PendingStep step{"step", stmt, std::move(binds), {}};
    step.result = connection.run(stmt, step.binds);
    log.ran(connection, step, now);
    return step.result;
  }
  ScratchLedger ledger;
  Connection connection;
  WriteSetLog log;
  Notes first;
  Notes second;
};

Binds debit(int64_t amount) {
  return {{":from", "alice"}, {":amount", amount}};
}

}  // namespace

TEST_CASE("a transaction's writes ship together at its COMMIT, to every follower") {
  Followed run;
  REQUIRE(run.run(Stmt::kBeginImmediate, {}).ok());
  REQUIRE(run.run(Stmt::kDebit, debit(10)).ok());
  REQUIRE(run.run(Stmt::kDebit, debit(20)).ok());
  REQUIRE(run.run(Stmt::kCommit, {}, 7).ok());
  const std::vector<std::string> expected{"began", "wrote a row", "wrote a row",
                                          "committed 2 at 7"};
  CHECK(run.first.heard == expected);
  CHECK(run.second.heard == expected);
}

TEST_CASE("a write outside a transaction ships alone, and one that changed nothing not at all") {
  Followed run;
  REQUIRE(run.run(Stmt::kDebit, debit(10), 3).ok());
  REQUIRE(run.run(Stmt::kDebit, debit(1000), 4).ok());  // more than alice has: no row changes
  CHECK(run.first.heard == std::vector<std::string>{"wrote a row", "committed 1 at 3"});
}

TEST_CASE("a rollback ships nothing, and an empty commit ships an empty set") {
  Followed run;
  REQUIRE(run.run(Stmt::kBeginImmediate, {}).ok());
  REQUIRE(run.run(Stmt::kDebit, debit(10)).ok());
  REQUIRE(run.run(Stmt::kRollback, {}).ok());
  REQUIRE(run.run(Stmt::kBeginImmediate, {}).ok());
  REQUIRE(run.run(Stmt::kCommit, {}, 9).ok());
  CHECK(run.first.heard ==
        std::vector<std::string>{"began", "wrote a row", "ended", "began", "committed 0 at 9"});
}

TEST_CASE("a transaction rolled back outside the log's steps ships nothing") {
  Followed run;
  REQUIRE(run.run(Stmt::kBeginImmediate, {}).ok());
  REQUIRE(run.run(Stmt::kDebit, debit(10)).ok());
  run.connection.rollback_if_open();
  run.log.rolled_back(run.connection);
  CHECK(run.first.heard == std::vector<std::string>{"began", "wrote a row", "ended"});
}

TEST_CASE("a write no follower needs is left out, and its set still says a row changed") {
  // A follower of tokens only, as the read standby follows only the tables read there.
  struct Tokens final : WriteSetFollower {
    bool follows(Stmt stmt) const override { return stmt == Stmt::kInsertToken; }
    void committed(WriteSet&& set) override {
      heard.push_back(std::to_string(set.writes.size()) + (set.changed ? " changed" : " none"));
    }
    std::vector<std::string> heard;
  };
  ScratchLedger ledger;
  Connection connection;
  REQUIRE(ScratchLedger::create({{"alice", 100}}, &ledger, &connection).is_ok());
  WriteSetLog log;
  Tokens tokens;
  log.follow(&tokens);
  auto run = [&](Stmt stmt, Binds binds) {
    PendingStep step{"step", stmt, std::move(binds), {}};
    step.result = connection.run(stmt, step.binds);
    REQUIRE(step.result.ok());
    log.ran(connection, step, 0);
  };
  run(Stmt::kDebit, debit(10));    // alone, not needed: an empty set that changed a row
  run(Stmt::kDebit, debit(1000));  // alone, changed nothing: no set
  run(Stmt::kBeginImmediate, {});
  run(Stmt::kDebit, debit(10));
  run(Stmt::kInsertToken, {{":token", "t1"}, {":now", int64_t{0}}, {":expires", int64_t{9}}});
  run(Stmt::kCommit, {});
  run(Stmt::kBeginImmediate, {});
  run(Stmt::kCommit, {});  // changed nothing
  CHECK(tokens.heard == std::vector<std::string>{"0 changed", "1 changed", "0 none"});
}
