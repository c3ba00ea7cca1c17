// Tests for sim/retry.
#include <doctest/doctest.h>

#include "sim/shared/retry.h"

using namespace idemlab;

TEST_CASE("a retry policy's text parses back to the same policy") {
  RetryPolicy policy;
  REQUIRE(parse_retry("attempts=7,timeout-ms=250,backoff=constant,base-ms=10,cap-ms=99,"
                      "jitter=equal,key=fresh,query=yes",
                      &policy)
              .is_ok());
  RetryPolicy again;
  REQUIRE(parse_retry(policy.text(), &again).is_ok());
  CHECK(again.text() == policy.text());
  CHECK(policy.attempts == 7);
  CHECK(policy.fresh_key);
  CHECK(policy.query_first);
}

TEST_CASE("exponential backoff doubles up to the cap; jitter stays inside it") {
  RetryPolicy policy;
  REQUIRE(parse_retry("backoff=exp,base-ms=50,cap-ms=300,jitter=none", &policy).is_ok());
  Random random(1);
  CHECK(policy.delay_ms(1, random) == 50);
  CHECK(policy.delay_ms(2, random) == 100);
  CHECK(policy.delay_ms(3, random) == 200);
  CHECK(policy.delay_ms(4, random) == 300);
  CHECK(policy.delay_ms(9, random) == 300);
  REQUIRE(parse_retry("jitter=full", &policy).is_ok());
  for (int i = 0; i < 200; ++i) {
    int64_t delay = policy.delay_ms(3, random);
    CHECK(delay >= 0);
    CHECK(delay <= 200);
  }
  REQUIRE(parse_retry("jitter=equal", &policy).is_ok());
  for (int i = 0; i < 200; ++i) CHECK(policy.delay_ms(3, random) >= 100);
}

TEST_CASE("bad retry policies are usage errors") {
  for (const char* text : {"attempts=0", "attempts=x", "timeout-ms=0", "backoff=linear",
                           "jitter=some", "key=new", "speed=9", "attempts"}) {
    CAPTURE(text);
    RetryPolicy policy;
    CHECK(parse_retry(text, &policy).code() == StatusCode::kUsage);
  }
}
