// Tests for explore --failover=ledger: the ledger's primary dies right after each commit of a
// run in turn, and the standby that takes over never received that commit.
#include <doctest/doctest.h>

#include <algorithm>

#include "sim/explore/explore.h"

using namespace idemlab;

namespace {
ExploreResult failed_over(const char* name, bool guards_apart) {
  ExploreConfig config;
  config.ledger_failover = true;
  config.guards_apart = guards_apart;
  ExploreResult result;
  Status status = explore(*find_strategy(name), Pitfall::kNone, config, &result);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return result;
}

bool has_step(const std::vector<TimelineEvent>& timeline, const std::string& step) {
  return std::any_of(timeline.begin(), timeline.end(),
                     [&](const TimelineEvent& event) { return event.what == step; });
}
}  // namespace

TEST_CASE("a token kept in the ledger fails over with the money: the twin moves it once") {
  ExploreResult result = failed_over("token", false);
  CHECK(result.ledger_fails_over);
  CHECK_FALSE(result.guards_apart);
  CHECK(result.interleavings > 6);  // the 6 plain ones, then each failover point
  CHECK(result.breaking == 0);
}

TEST_CASE("a token kept in a store that stays up outlives its lost transfer") {
  ExploreResult result = failed_over("token", true);
  CHECK(result.guards_apart);
  CHECK(result.breaking > 0);
  CHECK(result.by_invariant.size() == 1);
  CHECK(result.by_invariant["never_moved"] == result.breaking);
  CHECK(result.first_breaking_by_fault);
  CHECK(result.first_breaking_point.ledger_failover_after == 1);
  CHECK(has_step(result.first_breaking, "failover"));
  // The failover follows the commit that moved the money, and the twin's token is refused.
  const auto commit = std::find_if(result.first_breaking.begin(), result.first_breaking.end(),
                                   [](const TimelineEvent& e) { return e.what == "commit"; });
  REQUIRE(commit != result.first_breaking.end());
  CHECK((commit + 1)->what == "failover");
}

TEST_CASE("a dedup record committed apart from the money survives the money's loss") {
  ExploreConfig config;
  config.ledger_failover = true;
  ExploreResult result;
  REQUIRE(explore(*find_strategy("dedup-table"), Pitfall::kSeparateTransactions, config, &result)
              .is_ok());
  CHECK(result.by_invariant["never_moved"] > 0);
}
