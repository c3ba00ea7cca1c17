// The live read split and the simulator's lagging replica route reads by one rule: the same
// scripted lag (commits, the standby replaying each a lag later, reads) through both gives the
// same routing and the same answers, read by read.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/clock.h"
#include "sim/shared/lagging_replica.h"

using namespace idemlab;

namespace {

constexpr int64_t kLagMs = 100;
struct Event {
  int64_t at_ms;
  bool commit;  // else a read of the newest token
};
const std::vector<Event> kScript{{10, true},  {20, true},   {50, false},  {125, false},
                                 {200, true}, {210, false}, {299, false}, {301, false}};

Binds token(int n, int64_t now) {
  return {{":token", "t" + std::to_string(n)}, {":now", now}, {":expires", int64_t{60000}}};
}

// A standby server as the live split sees it: positions, from the script, as a server reports
// them (the primary's commits made so far; the standby's, those a lag old).
struct ScriptedStandby final : StandbyState {
  const std::vector<int64_t>* commits = nullptr;
  const ManualClock* clock = nullptr;
  std::string shown;
  StepResult before_read(Stmt, const Binds&, bool ask, bool* caught_up) override {
    size_t replayed = 0;
    while (replayed < commits->size() && (*commits)[replayed] + kLagMs <= clock->now_ms())
      ++replayed;
    if (ask) *caught_up = replayed == commits->size();
    return {};
  }
  const std::string& replayed() const override { return shown; }
};

struct Route {
  bool on_standby;
  bool found;
  bool operator==(const Route&) const = default;
};

// The live split: a primary and a standby that the test replicates to by the script's lag.
std::vector<Route> live(bool read_your_writes) {
  ScratchLedger primary_ledger, standby_ledger;
  Connection primary, standby;
  REQUIRE(ScratchLedger::create({{"alice", 100}}, &primary_ledger, &primary).is_ok());
  REQUIRE(ScratchLedger::create({{"alice", 100}}, &standby_ledger, &standby).is_ok());
  ManualClock clock(0);
  std::vector<int64_t> commits;
  auto state = std::make_unique<ScriptedStandby>();
  state->commits = &commits;
  state->clock = &clock;
  ReadSplit split(standby, primary, read_your_writes, std::move(state), "");
  std::vector<Route> out;
  size_t replicated = 0;
  for (const Event& event : kScript) {
    clock.advance_ms(event.at_ms - clock.now_ms());
    for (; replicated < commits.size() && commits[replicated] + kLagMs <= event.at_ms; ++replicated)
      REQUIRE(standby.run(Stmt::kInsertToken, token(static_cast<int>(replicated) + 1, 0)).ok());
    if (event.commit) {
      commits.push_back(event.at_ms);
      REQUIRE(primary.run(Stmt::kInsertToken, token(static_cast<int>(commits.size()), 0)).ok());
      continue;
    }
    const StepResult read =
        split.run(Stmt::kSelectToken, token(static_cast<int>(commits.size()), 0));
    REQUIRE(read.ok());
    out.push_back({split.last_on_standby(), read.row.has_value()});
  }
  return out;
}

// The simulator: its lagging replica, following the write sets of the statements the primary
// ran.
std::vector<Route> simulated(bool read_your_writes) {
  ScratchLedger ledger;
  Connection primary;
  REQUIRE(ScratchLedger::create({{"alice", 100}}, &ledger, &primary).is_ok());
  LaggingReplica replica;
  REQUIRE(LaggingReplica::create(primary, kLagMs, &replica).is_ok());
  WriteSetLog log;
  log.follow(&replica);
  ManualClock clock(0);
  std::unique_ptr<ReadSplit> split = replica_reads(replica, primary, clock, read_your_writes);
  std::vector<Route> out;
  int commits = 0;
  for (const Event& event : kScript) {
    clock.advance_ms(event.at_ms - clock.now_ms());
    if (event.commit) {
      PendingStep step{"step", Stmt::kInsertToken, token(++commits, 0), {}};
      step.result = primary.run(step.stmt, step.binds);
      REQUIRE(step.result.ok());
      log.ran(primary, step, event.at_ms);
      continue;
    }
    const StepResult read = split->run(Stmt::kSelectToken, token(commits, 0));
    REQUIRE(read.ok());
    out.push_back({split->last_on_standby(), read.row.has_value()});
  }
  return out;
}

}  // namespace

TEST_CASE("the live read split and the simulator's route a scripted lag alike, read by read") {
  for (bool read_your_writes : {false, true}) {
    CAPTURE(read_your_writes);
    const std::vector<Route> expected =
        read_your_writes
            ? std::vector<Route>{{false, true},
                                 {true, true},
                                 {false, true},
                                 {false, true},
                                 {true, true}}
            : std::vector<Route>{
                  {true, false}, {true, true}, {true, false}, {true, false}, {true, true}};
    CHECK(live(read_your_writes) == expected);
    CHECK(simulated(read_your_writes) == expected);
  }
}
