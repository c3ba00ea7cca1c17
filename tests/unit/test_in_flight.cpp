// Tests for http/in_flight: when a server expects an attempt under way to finish.
#include <doctest/doctest.h>

#include "http/in_flight.h"

using namespace idemlab;

TEST_CASE("an attempt under way is expected at its start, its slow faults and a typical run") {
  InFlight in_flight;
  CHECK_FALSE(in_flight.expected_finish("api:k").has_value());
  {
    InFlight::Entry first = in_flight.enter("api:k", 1000, 5000);
    CHECK(in_flight.expected_finish("api:k") == 1000 + 5000 + 1);
    CHECK_FALSE(in_flight.expected_finish("api:other").has_value());
    first.finished(1000 + 5000 + 81);  // ran 81 ms past its slow fault
  }
  CHECK_FALSE(in_flight.expected_finish("api:k").has_value());
  CHECK(in_flight.typical_ms() == 11);  // 1 + (81 - 1) / 8: one slow run does not dominate
}

TEST_CASE("the latest of two attempts at one key is the one a twin waits for") {
  InFlight in_flight;
  InFlight::Entry a = in_flight.enter("api:k", 0, 100);
  {
    InFlight::Entry b = in_flight.enter("api:k", 50, 2000);
    CHECK(in_flight.expected_finish("api:k") == 2051);
  }  // b gone without finishing (an error): it teaches nothing
  CHECK(in_flight.expected_finish("api:k") == 101);
  CHECK(in_flight.typical_ms() == 1);
}
