// Property tests (RapidCheck): random seeds, fault mixes and retry policies through every safe
// strategy. Whatever the schedule, money never moves twice, a client is never told success for
// money that did not move, answers agree, and the audit passes.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <rapidcheck.h>

#include "sim/simulate/simulate.h"
#include "strategies/strategy.h"

using namespace idemlab;

namespace {

std::vector<std::string> safe_strategies() {
  std::vector<std::string> names;
  for (const Strategy* strategy : all_strategies())
    if (strategy->info().guarded) names.emplace_back(strategy->info().name);
  return names;
}

}  // namespace

TEST_CASE("random fault mixes never break a safe strategy") {
  const auto names = safe_strategies();
  bool ok = rc::check("safe strategies keep their invariants", [&] {
    const auto strategy = *rc::gen::elementOf(names);
    SimConfig config;
    config.requests = *rc::gen::inRange<int64_t>(5, 40);
    config.concurrency = *rc::gen::inRange(1, 8);
    config.seed = *rc::gen::arbitrary<uint64_t>();
    auto percent = [] { return *rc::gen::inRange(0, 40) / 100.0; };
    std::vector<std::string> texts{
        fmt::format("request-lost:p={}", percent()),
        fmt::format("response-lost:p={}", percent()),
        fmt::format("slow:p={},ms={}", percent(), *rc::gen::inRange(1, 900)),
        fmt::format("redeliver:p={},k={}", percent(), *rc::gen::inRange(1, 3)),
        fmt::format("double-submit:p={},k={}", percent(), *rc::gen::inRange(2, 4)),
        fmt::format("busy:p={},ms={}", percent() / 4, *rc::gen::inRange(1, 200)),
        fmt::format("crash:after=debit,p={}", percent() / 2),
        fmt::format("crash:after=commit,p={}", percent() / 2)};
    for (const auto& text : texts) {
      FaultSpec fault;
      RC_ASSERT(parse_fault(text, &fault).is_ok());
      config.faults.push_back(fault);
    }
    RC_ASSERT(parse_retry(fmt::format("attempts={},timeout-ms={},jitter={}",
                                      *rc::gen::inRange(1, 8), *rc::gen::inRange(50, 600),
                                      *rc::gen::elementOf(
                                          std::vector<std::string>{"none", "full", "equal"})),
                          &config.retry)
                  .is_ok());
    SimResult result;
    RC_ASSERT(simulate(config, *find_strategy(strategy), Pitfall::kNone, {}, &result).is_ok());
    RC_LOG() << strategy << " seed " << config.seed << "\n";
    RC_ASSERT(result.moved_twice_or_more == 0);
    RC_ASSERT(result.never_moved == 0);
    RC_ASSERT(result.inconsistent_answers == 0);
    RC_ASSERT(result.audit_ok);
    RC_ASSERT(result.moved_once + result.not_moved == config.requests);
  });
  CHECK(ok);
}
