// The verdicts: a request that moved nothing is in exactly one of four columns, whatever the
// answers its client got, so that a table's columns add up to its requests.
#include <doctest/doctest.h>

#include "sim/shared/judge.h"

namespace idemlab {

TEST_CASE("a request that moved nothing lands in exactly one column") {
  for (int bits = 0; bits < 16; ++bits) {
    RequestFacts facts;
    facts.told_success = bits & 1;
    facts.definitive = (bits & 2) || facts.told_success;  // a success is a definitive answer
    facts.inconsistent = bits & 4;
    facts.gave_up_on_in_progress = bits & 8;
    for (uint32_t pairs : {0u, 1u, 2u}) {
      facts.pairs = pairs;
      const RequestVerdicts v = judge(facts);
      const int columns = v.never_moved + v.stuck + v.refused + v.gave_up;
      CAPTURE(bits);
      CAPTURE(pairs);
      CHECK(columns == (pairs == 0 ? 1 : 0));
      CHECK(v.moved_twice_or_more == (pairs >= 2));
    }
  }
}

TEST_CASE("a client that gave up on busy answers, nothing moved, gave up") {
  const RequestVerdicts v = judge(RequestFacts{0, false, false, false, false});
  CHECK(v.gave_up);
  CHECK(has_verdict(v, "gave_up"));
  CHECK_FALSE(v.refused);
  CHECK_FALSE(v.stuck);
}

}  // namespace idemlab
