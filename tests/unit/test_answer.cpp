// Tests for ledger/answer.
#include <doctest/doctest.h>

#include "ledger/answer.h"

using namespace idemlab;

TEST_CASE("outcome names round-trip") {
  for (int i = 0; i <= static_cast<int>(Outcome::kError); ++i) {
    auto outcome = static_cast<Outcome>(i);
    CHECK(outcome_from_name(outcome_name(outcome)) == outcome);
  }
}

TEST_CASE("a replay agrees with the applied answer; different rejections do not agree") {
  CHECK(answers_agree(Answer::of(Outcome::kApplied), Answer{Outcome::kApplied, "", true}));
  CHECK(answers_agree(Answer::of(Outcome::kRejected, "insufficient_funds"),
                      Answer{Outcome::kRejected, "insufficient_funds", true}));
  CHECK_FALSE(answers_agree(Answer::of(Outcome::kApplied),
                            Answer::of(Outcome::kRejected, "insufficient_funds")));
  CHECK_FALSE(answers_agree(Answer::of(Outcome::kTokenUsed), Answer::of(Outcome::kApplied)));
}

TEST_CASE("only in_progress, timeout, busy and error leave the outcome open") {
  CHECK(is_definitive(Outcome::kApplied));
  CHECK(is_definitive(Outcome::kTokenExpired));
  CHECK_FALSE(is_definitive(Outcome::kInProgress));
  CHECK_FALSE(is_definitive(Outcome::kTimeout));
  CHECK_FALSE(is_definitive(Outcome::kBusy));
}
