// Tests for sim/engine: determinism, verdicts counted from the journal, the failures the
// faults are meant to show.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <rapidcheck.h>

#include "sim/shared/percentile.h"
#include "sim/shared/request_key.h"
#include "sim/simulate/simulate.h"
#include "strategies/strategy.h"

using namespace idemlab;

namespace {

SimConfig config_with(std::vector<std::string> faults, int64_t requests = 60, uint64_t seed = 1) {
  SimConfig config;
  config.requests = requests;
  config.seed = seed;
  for (const auto& text : faults) {
    FaultSpec fault;
    REQUIRE(parse_fault(text, &fault).is_ok());
    config.faults.push_back(fault);
  }
  return config;
}

SimResult run(const SimConfig& config, const char* strategy, bool pitfall = false,
              SimOptions options = {}) {
  SimResult result;
  const Strategy& chosen = *find_strategy(strategy);
  Status status = simulate(config, chosen, pitfall ? main_pitfall(chosen.info()) : Pitfall::kNone,
                           options, &result);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return result;
}

}  // namespace

TEST_CASE("the same config and seed give the same result, for several seeds") {
  for (uint64_t seed : {1, 2, 99}) {
    CAPTURE(seed);
    SimConfig config =
        config_with({"response-lost:p=0.3", "slow:p=0.1,ms=400", "double-submit:p=0.2"}, 80, seed);
    SimOptions options;
    options.timeline = true;
    SimResult a = run(config, "state-machine", false, options);
    SimResult b = run(config, "state-machine", false, options);
    CHECK(a.moved_once == b.moved_once);
    CHECK(a.attempts_per_request == b.attempts_per_request);
    CHECK(a.statements_per_request == b.statements_per_request);
    CHECK(a.latency_ms_p99 == b.latency_ms_p99);
    CHECK(a.lock_waits == b.lock_waits);
    CHECK(a.virtual_ms == b.virtual_ms);
    REQUIRE(a.timeline.size() == b.timeline.size());
    for (size_t i = 0; i < a.timeline.size(); ++i) {
      CHECK(a.timeline[i].at_ms == b.timeline[i].at_ms);
      CHECK(a.timeline[i].what == b.timeline[i].what);
      CHECK(a.timeline[i].result == b.timeline[i].result);
    }
  }
}

TEST_CASE("moved once, twice or more and not moved partition the requests") {
  SimResult result = run(config_with({"response-lost:p=0.4"}, 100), "naive");
  CHECK(result.moved_once + result.moved_twice_or_more + result.not_moved == 100);
  CHECK(result.moved_twice_or_more > 0);
  CHECK_FALSE(result.audit_ok);
}

TEST_CASE("a lost response moves money twice without protection and once with it") {
  SimConfig config = config_with({"response-lost:p=0.5"});
  CHECK(run(config, "naive").moved_twice_or_more > 0);
  CHECK(run(config, "direct-insert", true).moved_twice_or_more > 0);
  SimResult safe = run(config, "direct-insert");
  CHECK(safe.moved_twice_or_more == 0);
  CHECK(safe.moved_once == 60);
  CHECK(safe.inconsistent_answers == 0);
  CHECK(safe.audit_ok);
}

TEST_CASE("a crash between dedup row and business leaves requests stuck") {
  SimConfig config = config_with({"crash:after=insert_dedup,p=0.3"});
  SimResult pitfall = run(config, "dedup-table", true);
  CHECK(pitfall.stuck > 0);
  CHECK(pitfall.moved_twice_or_more == 0);
  SimResult safe = run(config, "dedup-table");
  CHECK(safe.stuck == 0);
  CHECK(safe.moved_once == 60);
}

TEST_CASE("a fresh key on every retry doubles the money even with a safe strategy") {
  SimConfig config = config_with({"response-lost:p=0.5"});
  REQUIRE(parse_retry("key=fresh", &config.retry).is_ok());
  CHECK(run(config, "select-insert").moved_twice_or_more > 0);
}

TEST_CASE("query-before-retry learns the outcome instead of sending again") {
  SimConfig config = config_with({"response-lost:p=0.5"});
  REQUIRE(parse_retry("query=yes", &config.retry).is_ok());
  SimResult naive = run(config, "naive");
  CHECK(naive.moved_twice_or_more == 0);
  CHECK(naive.moved_once == 60);
}

TEST_CASE("nth= aims a fault at one request") {
  SimOptions options;
  options.timeline = true;
  SimResult result = run(config_with({"request-lost:nth=3"}, 5), "select-insert", false, options);
  int lost = 0;
  for (const auto& event : result.timeline)
    if (event.fault == "request-lost") {
      ++lost;
      CHECK(event.request == 3);
    }
  CHECK(lost == 1);
}

TEST_CASE("simulated keys map back to their request") {
  const std::vector<std::string> sources{"api", "batch"};
  const RequestKeys keys(sources);
  CHECK(keys.biz_seq_of(0, 0) == "r1");
  CHECK(keys.biz_seq_of(23, 3) == "r12.3");
  CHECK(keys.source_of(23) == "batch");
  CHECK(keys.request_of("api", "r1") == 0);
  CHECK(keys.request_of("batch", "r12.3") == 23);
  CHECK(keys.request_of("other", "r1") == -1);
  CHECK(keys.request_of("api", "x1") == -1);
  CHECK(keys.request_of("api", "r") == -1);
  CHECK(keys.request_of("api", "r0") == -1);
  CHECK(keys.request_of("api", "r1x") == -1);
  CHECK(keys.request_of("api", "r99999999999999999999") == -1);
}

TEST_CASE("reading a simulated key back is the exact inverse of writing it") {
  const bool ok = rc::check("request_of(source_of(i), biz_seq_of(i, k)) == i", [] {
    const auto count = *rc::gen::inRange<size_t>(1, 5);
    std::vector<std::string> sources;
    for (size_t i = 0; i < count; ++i) sources.push_back(fmt::format("s{}", i));
    const RequestKeys keys(sources);
    const auto request = *rc::gen::inRange<uint32_t>(0, 10'000'000);
    const auto key = *rc::gen::arbitrary<uint8_t>();
    RC_ASSERT(keys.request_of(keys.source_of(request), keys.biz_seq_of(request, key)) ==
              static_cast<int64_t>(request));
  });
  CHECK(ok);
}

TEST_CASE("percentiles are taken by nearest rank") {
  std::vector<int64_t> three{12, 362, 19};
  CHECK(nearest_rank(three, 0.99) == 362);
  CHECK(nearest_rank(three, 0.50) == 19);
  std::vector<int64_t> hundred;
  for (int64_t i = 1; i <= 100; ++i) hundred.push_back(101 - i);
  CHECK(nearest_rank(hundred, 0.99) == 99);
  CHECK(nearest_rank(hundred, 0.50) == 50);
  std::vector<int64_t> none;
  CHECK(nearest_rank(none, 0.99) == 0);
}

TEST_CASE("deliveries per request count every copy that reached the server") {
  const SimConfig config = config_with({"double-submit:k=2,p=1"}, 200);
  SimResult result;
  REQUIRE(simulate(config, *find_strategy("state-machine"), Pitfall::kNone, {}, &result).is_ok());
  CHECK(result.attempts_per_request == doctest::Approx(1.0));
  CHECK(result.deliveries_per_request == doctest::Approx(2.0));
}

TEST_CASE("a crash without a step hits every strategy at a step it reaches") {
  const SimConfig config = config_with({"crash:p=0.5"}, 100);
  for (const Strategy* strategy : all_strategies()) {
    CAPTURE(strategy->info().name);
    SimResult clean, crashed;
    REQUIRE(simulate(config_with({}, 100), *strategy, Pitfall::kNone, {}, &clean).is_ok());
    REQUIRE(simulate(config, *strategy, Pitfall::kNone, {}, &crashed).is_ok());
    // Crashed attempts send no answer, so clients retry: the crash really happened.
    CHECK(crashed.attempts_per_request > clean.attempts_per_request);
  }
}

TEST_CASE("a fault aimed at a step the strategy never reaches is refused") {
  SimConfig config = config_with({"crash:after=insert_dedup,p=1"}, 5);
  SimResult result;
  CHECK(simulate(config, *find_strategy("naive"), Pitfall::kNone, {}, &result).code() ==
        StatusCode::kUsage);
  CHECK(simulate(config, *find_strategy("dedup-table"), Pitfall::kNone, {}, &result).is_ok());
  config = config_with({"crash:after=insert_flow,p=1"}, 5);
  CHECK(simulate(config, *find_strategy("direct-insert"), Pitfall::kUpsertCarriesOn, {}, &result)
            .code() == StatusCode::kUsage);
}
