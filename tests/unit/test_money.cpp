// Tests for ledger/money.
#include <doctest/doctest.h>

#include "ledger/money.h"

using namespace idemlab;

TEST_CASE("amounts parse into minor units") {
  int64_t minor = 0;
  CHECK(parse_amount("12", false, &minor).is_ok());
  CHECK(minor == 1200);
  CHECK(parse_amount("12.3", false, &minor).is_ok());
  CHECK(minor == 1230);
  CHECK(parse_amount("0.01", false, &minor).is_ok());
  CHECK(minor == 1);
  CHECK(parse_amount("0", true, &minor).is_ok());
  CHECK(minor == 0);
}

TEST_CASE("bad amounts are usage errors") {
  int64_t minor = 42;
  for (const char* text : {"", "-1", "+1", "0", "0.00", "1.234", "1e3", "abc", " 1", "1 ", "1.",
                           ".5", "1,5", "99999999999999999999", "10000000000000.01"}) {
    CAPTURE(text);
    Status status = parse_amount(text, false, &minor);
    CHECK(status.code() == StatusCode::kUsage);
  }
  CHECK(minor == 42);
}

TEST_CASE("amounts print with two decimals") {
  CHECK(format_amount(0) == "0.00");
  CHECK(format_amount(1234) == "12.34");
  CHECK(format_amount(-5) == "-0.05");
}
