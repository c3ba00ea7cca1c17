// Tests for server/trace: explain's rehearsal runs the real code and names declared steps.
#include <doctest/doctest.h>

#include <algorithm>

#include "server/trace.h"

using namespace idemlab;

TEST_CASE("every traced step is a declared step, so crash:after= can name it") {
  for (const Strategy* strategy : all_strategies()) {
    for (bool pitfall : {false, true}) {
      CAPTURE(strategy->info().name);
      CAPTURE(pitfall);
      std::vector<TracedAttempt> attempts;
      REQUIRE(rehearse(*strategy, pitfall, &attempts).is_ok());
      REQUIRE(attempts.size() == 2);
      const auto& steps = strategy->info().steps;
      for (const auto& attempt : attempts)
        for (const auto& step : attempt.steps) {
          CAPTURE(step.step);
          CHECK(std::find(steps.begin(), steps.end(), step.step) != steps.end());
        }
      const auto& critical =
          pitfall ? strategy->info().critical_step_pitfall : strategy->info().critical_step;
      CHECK(std::find(steps.begin(), steps.end(), critical) != steps.end());
    }
  }
}

TEST_CASE("the rehearsal's first attempt applies and its repeat replays") {
  std::vector<TracedAttempt> attempts;
  REQUIRE(rehearse(*find_strategy("state-machine"), false, &attempts).is_ok());
  CHECK(attempts[0].answer.outcome == Outcome::kApplied);
  CHECK(attempts[1].answer.outcome == Outcome::kReplayed);
  CHECK(attempts[1].steps.back().step == "select_flow");
}
