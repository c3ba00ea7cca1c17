// Tests for attempt/front_door: one check of a request for every transport.
#include <doctest/doctest.h>

#include "attempt/front_door.h"

using namespace idemlab;

namespace {

RequestText valid() {
  RequestText text;
  text.key = "r1";
  text.from = "alice";
  text.to = "bob";
  text.amount = "12.50";
  return text;
}

AttemptPolicy policy_for(Transport transport, const char* strategy = "select-insert") {
  AttemptPolicy policy;
  policy.transport = transport;
  policy.strategy = find_strategy(strategy);
  return policy;
}

std::string refusal(const RequestText& text, Transport transport) {
  Result<AttemptSetup> admitted = admit(text, policy_for(transport));
  return admitted.is_ok() ? "admitted" : admitted.status().message();
}

}  // namespace

TEST_CASE("a request's fields are refused in the same words on every transport") {
  std::vector<RequestText> bad(6, valid());
  bad[0].amount = "-5";
  bad[1].amount = "1.234";
  bad[2].from = "al ice";
  bad[3].to = std::string(33, 'b');
  bad[4].source = "a\x1b[31m";
  bad[5].amount = "100000000000000000";
  for (const RequestText& text : bad) {
    const std::string words = refusal(text, Transport::kCommandLine);
    CAPTURE(words);
    CHECK(words != "admitted");
    CHECK(refusal(text, Transport::kHttp) == words);
    CHECK(refusal(text, Transport::kQueue) == words);
  }
  CHECK(refusal(bad[0], Transport::kQueue) ==
        "invalid amount '-5': must be greater than zero, written without a sign, e.g. 12.34");
  CHECK(refusal(bad[4], Transport::kQueue) ==
        "invalid source 'a\\x1b[31m': ASCII letters, digits, '_' or '-' only");
  CHECK(refusal(bad[5], Transport::kQueue) ==
        "invalid amount '100000000000000000': too large; at most 10000000000000.00");
}

TEST_CASE("the key is named as each transport carries it") {
  RequestText text = valid();
  text.key = "";
  CHECK(refusal(text, Transport::kCommandLine) == "--biz-seq is empty");
  CHECK(refusal(text, Transport::kHttp) == "Idempotency-Key is empty");
  CHECK(refusal(text, Transport::kQueue) == "biz_seq is empty");
  text.key.reset();
  CHECK(refusal(text, Transport::kCommandLine) == "--biz-seq is required");
}

TEST_CASE("the attempt gets the policy's options and the defaults, once") {
  AttemptPolicy policy = policy_for(Transport::kQueue, "lock-table");
  policy.unique_index = true;  // not offered by lock-table: dropped
  Result<AttemptSetup> admitted = admit(valid(), policy);
  REQUIRE(admitted.is_ok());
  CHECK(admitted->request.amount_minor == 1250);
  CHECK(admitted->options.lock_ttl_ms == defaults::kLockTtlMs);
  CHECK_FALSE(admitted->options.unique_index);
  CHECK(admitted->options.owner.starts_with("queue-"));
  CHECK(new_owner(Transport::kQueue) != new_owner(Transport::kQueue));
}

TEST_CASE("the token strategy's request without a token is refused as token_required") {
  Result<AttemptSetup> admitted = admit(valid(), policy_for(Transport::kHttp, "token"));
  REQUIRE_FALSE(admitted.is_ok());
  CHECK(admitted.status().reason() == "token_required");
  CHECK(admitted.status().code() == StatusCode::kUsage);
}
