// Tests for attempt/fault_check: which command takes which fault, decided in one place.
#include <doctest/doctest.h>

#include "attempt/fault_check.h"

using namespace idemlab;

namespace {

std::vector<FaultSpec> faults_of(std::initializer_list<const char*> texts) {
  std::vector<FaultSpec> out;
  for (const char* text : texts) {
    FaultSpec spec;
    REQUIRE(parse_fault(text, &spec).is_ok());
    out.push_back(spec);
  }
  return out;
}

StatusCode check(Surface surface, std::initializer_list<const char*> texts,
                 const char* strategy = "select-insert") {
  return check_faults(surface, faults_of(texts), strategy ? find_strategy(strategy) : nullptr,
                      Pitfall::kNone)
      .code();
}

}  // namespace

TEST_CASE("faults that need a simulation, p=, nth= and unknown steps are refused in one attempt") {
  for (const char* text :
       {"redeliver", "double-submit", "busy:ms=5", "short-ttl:ms=5", "response-lost:p=0.5",
        "request-lost:nth=2", "crash:after=nowhere", "slow:ms=5,at=nowhere", "crash"}) {
    CAPTURE(text);
    CHECK(check(Surface::kOneAttempt, {text}) == StatusCode::kUsage);
  }
}

TEST_CASE("one attempt takes one crash, one slow and one wire fault") {
  CHECK(check(Surface::kOneAttempt, {"slow:ms=5", "crash:after=insert_flow"}) == StatusCode::kOk);
  CHECK(check(Surface::kOneAttempt, {"slow:ms=5", "slow:ms=7"}) == StatusCode::kUsage);
  CHECK(check(Surface::kOneAttempt, {"crash:after=insert_flow", "crash:after=debit"}) ==
        StatusCode::kUsage);
  CHECK(check(Surface::kOneAttempt, {"request-lost", "response-lost"}) == StatusCode::kUsage);
  CHECK(check(Surface::kHttp, {"response-lost", "response-lost"}) == StatusCode::kUsage);
}

TEST_CASE("each surface takes the faults its column names") {
  CHECK(check(Surface::kHttp, {"response-lost"}) == StatusCode::kOk);
  CHECK(check(Surface::kHttp, {"slow:ms=5"}) == StatusCode::kUsage);
  CHECK(check(Surface::kLimit, {"request-lost"}, nullptr) == StatusCode::kOk);
  CHECK(check(Surface::kLimit, {"crash:after=debit"}, nullptr) == StatusCode::kUsage);
  CHECK(check(Surface::kConsume, {"crash:after=debit,p=0.1"}) == StatusCode::kOk);
  CHECK(check(Surface::kConsume, {"response-lost"}) == StatusCode::kUsage);
  CHECK(check(Surface::kServe, {"response-lost:p=0.5", "slow:nth=3"}) == StatusCode::kOk);
  CHECK(check(Surface::kSimulate, {"redeliver:k=2", "crash:p=0.1"}, nullptr) == StatusCode::kOk);
  CHECK(check(Surface::kSimulate, {"slow:gate=/tmp/g"}, nullptr) == StatusCode::kUsage);
  CHECK(check(Surface::kSimulate, {"crash:after=nowhere"}, nullptr) == StatusCode::kUsage);
}

TEST_CASE("a surface's --fault help names exactly the faults it takes") {
  CHECK(fault_help(Surface::kHttp) == "request-lost | response-lost");
  CHECK(fault_help(Surface::kConsume).starts_with("slow[:ms=MS,at=STEP] | crash:after=STEP"));
  CHECK(fault_names(Surface::kOneAttempt) == "request-lost, response-lost, slow, crash and pause");
}
