// Tests for term/text.
#include <doctest/doctest.h>

#include "term/text.h"

using namespace idemlab;

TEST_CASE("tables align columns; right-aligned columns pad on the left") {
  TextTable table{{"name", "n"}, {false, true}, {{"alice", "1"}, {"b", "100"}}};
  CHECK(table.render() == "name     n\nalice    1\nb      100\n");
}

TEST_CASE("wrap breaks at the width and indents every line") {
  CHECK(wrap("aaa bbb ccc", 2, 9) == "  aaa bbb\n  ccc\n");
}

TEST_CASE("wrap cuts a word longer than a line, so no line is wider than the width") {
  CHECK(wrap("abcdefghij x", 2, 6) == "  abcd\n  efgh\n  ij x\n");
}
