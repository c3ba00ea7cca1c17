// Tests for sim/explore_walk: the depth-first walk, and what it does when a replayed prefix is
// answered another way (on PostgreSQL, waiters woken at once race for a row).
#include <doctest/doctest.h>

#include <map>

#include "sim/explore/replayer.h"

using namespace idemlab;

namespace {

// Two attempts of two steps each, every order possible: C(4,2) = 6 interleavings. For the
// prefixes in `waits_first`, attempt 2 is reported waiting at step 1 that many times before
// it is enabled as before; kForever: always.
constexpr int kForever = 1000;
class ScriptedReplayer final : public Replayer {
 public:
  std::map<std::vector<int>, int> waits_first;
  int runs = 0;

  Status run(const std::vector<int>& prefix, FaultPoint, bool, ExploreRun* out) override {
    ++runs;
    int& waits = waits_first[prefix];
    const bool waiting = waits > 0;
    if (waits > 0 && waits < kForever) --waits;
    int left[2] = {2, 2};
    for (size_t depth = 0; left[0] + left[1] > 0; ++depth) {
      std::vector<int> enabled;
      for (int attempt : {0, 1})
        if (left[attempt] > 0 && !(waiting && depth == 0 && attempt == 1))
          enabled.push_back(attempt);
      int choice = enabled.front();
      if (depth < prefix.size() && out->diverged_step == 0) {
        if (std::find(enabled.begin(), enabled.end(), prefix[depth]) == enabled.end()) {
          out->diverged_step = static_cast<int>(depth) + 1;
          out->redundant = true;
        } else {
          choice = prefix[depth];
        }
      }
      out->schedule.push_back(choice);
      out->enabled.push_back(enabled);
      --left[choice];
    }
    return Status::ok();
  }
};

ExploreResult walked(ScriptedReplayer& replayer) {
  ExploreConfig config;
  ExploreResult result;
  bool reached = false;
  Status status = explore_schedules(replayer, {}, config, &result, &reached);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return result;
}

}  // namespace

TEST_CASE("the walk tries every interleaving once") {
  ScriptedReplayer replayer;
  ExploreResult result = walked(replayer);
  CHECK(result.interleavings == 6);
  CHECK(replayer.runs == 6);
  CHECK(result.replays_repeated == 0);
  CHECK(result.branches_not_replayed == 0);
}

TEST_CASE("a prefix answered another way is run again until it goes as before") {
  ScriptedReplayer replayer;
  replayer.waits_first[{1}] = 3;  // the branch that starts with attempt 2
  ExploreResult result = walked(replayer);
  CHECK(result.interleavings == 6);
  CHECK(result.replays_repeated == 3);
  CHECK(result.branches_not_replayed == 0);
  CHECK(replayer.runs == 9);
}

TEST_CASE("a prefix never answered as before is skipped, counted, and the walk goes on") {
  ScriptedReplayer replayer;
  replayer.waits_first[{0, 1}] = kForever;  // attempt 1, then attempt 2: 2 of the 6 orders
  ExploreResult result = walked(replayer);
  CHECK(result.branches_not_replayed == 1);
  CHECK(result.interleavings == 4);  // 1 1 2 2, then the 3 that start with attempt 2
  CHECK(result.replays_repeated > 0);
}

TEST_CASE("an interleaving to draw that is never answered as before is an error") {
  ScriptedReplayer replayer;
  replayer.waits_first[{1, 0, 0, 1}] = kForever;
  ExploreResult result;
  std::vector<TimelineEvent> timeline;
  Status status = replay_timeline(replayer, {1, 0, 0, 1}, {}, &result, &timeline);
  CHECK_FALSE(status.is_ok());
  CHECK(status.message().find("attempt per step: 2 1 1 2") != std::string::npos);
}
