// Tests for term/text.
#include <doctest/doctest.h>

#include "term/command_text.h"
#include "term/text.h"
#include "term/width.h"

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

TEST_CASE("a command that does not fit breaks between words, each line but the last continued") {
  set_output_width(60);
  const std::string command =
      "reproduce: idemlab simulate --strategy token --scenario double-click --requests 30 "
      "--seed 1 --retry attempts=5 --fault 'slow:ms=20,at=critical' --fault double-submit:k=2";
  const std::string text = command_text(command);
  std::string joined;  // what a shell reads: each "\<newline>" and the indent after it removed
  size_t lines = 0;
  for (size_t start = 0; start < text.size(); ++lines) {
    const size_t end = text.find('\n', start);
    std::string line = text.substr(start, end - start);
    CHECK(line.size() <= 60);
    if (end + 1 < text.size()) {
      CHECK(line.ends_with(" \\"));
      line.resize(line.size() - 2);
    }
    joined += (joined.empty() ? "" : " ") + line.substr(line.find_first_not_of(' '));
    start = end + 1;
  }
  CHECK(lines >= 2);
  CHECK(joined == command);
  CHECK(text.find("--fault\n") == std::string::npos);  // an option keeps its value
  CHECK(text.find("--fault \\\n") == std::string::npos);
  set_output_width(100);
}

TEST_CASE("shell_word quotes what a shell would split or expand, and a quote inside") {
  CHECK(shell_word("attempts=5,key=fresh") == "attempts=5,key=fresh");
  CHECK(shell_word("a b") == "'a b'");
  CHECK(shell_word("it's") == "'it'\\''s'");
  CHECK(shell_word("") == "''");
}
