// Tests for http/json_text: a flat object written as text is, byte for byte, the body
// json_body() writes for the same object built as a nlohmann::ordered_json, whatever bytes its
// strings hold (escapes, multi-byte characters, broken UTF-8).
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <nlohmann/json.hpp>
#include <string>

#include "http/json_text.h"
#include "http/problem.h"

using namespace idemlab;

namespace {

std::string written(std::string_view key, std::string_view value) {
  JsonObjectText object;
  object.string(key, value);
  return std::move(object).body();
}

std::string dumped(const std::string& key, const std::string& value) {
  return json_body(nlohmann::ordered_json{{key, value}});
}

}  // namespace

TEST_CASE("an object written as text is the body nlohmann writes for it") {
  JsonObjectText account;
  account.string("account", "alice").string("balance", "1000.00").null("limit");
  CHECK(std::move(account).body() ==
        "{\"account\":\"alice\",\"balance\":\"1000.00\",\"limit\":null}\n");
  CHECK(JsonObjectText().body() == "{}\n");
  for (const std::string& value : std::initializer_list<std::string>{
           "", "plain", "a \"quoted\" name", "back\\slash", "tab\tand\nnewline",
           std::string(1, '\0'), "\x1f\x7f", "caf\xc3\xa9", "\xe2\x82\xac 5", "broken \xff utf-8",
           "cut \xc3"}) {
    CAPTURE(value);
    CHECK(written("k", value) == dumped("k", value));
  }
  nlohmann::ordered_json both{{"id", "t-1"}, {"state", "applied"}, {"limit", nullptr}};
  JsonObjectText same;
  same.string("id", "t-1").string("state", "applied").null("limit");
  CHECK(std::move(same).body() == json_body(both));
}

TEST_CASE("any string is written as nlohmann writes it") {
  // Any bytes at all, not only the printable ones a string generator favours.
  const auto bytes = rc::gen::container<std::string>(
      rc::gen::map(rc::gen::inRange(0, 256), [](int b) { return static_cast<char>(b); }));
  const bool ok = rc::check("the same bytes for any key and value", [&] {
    const std::string key = *bytes;
    const std::string value = *bytes;
    RC_ASSERT(written(key, value) == dumped(key, value));
  });
  CHECK(ok);
}
