// Tests for attempt/trace: explain's rehearsal runs the real code and names declared steps.
#include <doctest/doctest.h>

#include <algorithm>

#include "attempt/trace.h"

using namespace idemlab;

TEST_CASE("every traced step is a declared step, so crash:after= can name it") {
  for (const Strategy* strategy : all_strategies()) {
    std::vector<Pitfall> pitfalls{Pitfall::kNone};
    for (const PitfallInfo& pitfall : strategy->info().pitfalls) pitfalls.push_back(pitfall.id);
    for (Pitfall chosen : pitfalls) {
      CAPTURE(strategy->info().name);
      CAPTURE(pitfall_name(chosen));
      std::vector<TracedAttempt> attempts;
      REQUIRE(rehearse(*strategy, chosen, &attempts).is_ok());
      REQUIRE(attempts.size() == 2);
      const auto steps = reachable_steps(strategy->info(), chosen);
      for (const auto& attempt : attempts)
        for (const auto& step : attempt.steps) {
          CAPTURE(step.step);
          CHECK(std::find(steps.begin(), steps.end(), step.step) != steps.end());
        }
      const auto& critical = slow_default_step(strategy->info(), chosen);
      CHECK(std::find(steps.begin(), steps.end(), critical) != steps.end());
    }
  }
}

TEST_CASE("the rehearsal's first attempt applies and its repeat replays") {
  std::vector<TracedAttempt> attempts;
  REQUIRE(rehearse(*find_strategy("state-machine"), Pitfall::kNone, &attempts).is_ok());
  CHECK(attempts[0].answer.outcome == Outcome::kApplied);
  CHECK(attempts[1].answer.outcome == Outcome::kApplied);
  CHECK(attempts[1].answer.replayed);
  CHECK(attempts[1].steps.back().step == "select_flow");
}
