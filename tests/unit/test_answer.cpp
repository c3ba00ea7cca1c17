// Tests for ledger/answer, and serve's reply to an answer.
#include <doctest/doctest.h>

#include <algorithm>

#include "http/transfer_server.h"
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

TEST_CASE("serve's 503 says what the CLI's busy line says: a certification loser, a deadlock") {
  TransferRequest request;
  request.biz_seq = "b1";
  AttemptReport report;
  report.answer = Answer::of(Outcome::kBusy, reason::kCertificationFailed);
  report.where.node = "node2";
  const HttpReply reply = answer_reply(request, report);
  CHECK(reply.status == 503);
  CHECK(reply.body.find(busy_reason_text(reason::kCertificationFailed)) != std::string::npos);
  CHECK(reply.body.find("certified another node's transaction") != std::string::npos);
  CHECK(std::find(reply.headers.begin(), reply.headers.end(),
                  std::pair<std::string, std::string>{"Idemlab-Node", "node2"}) !=
        reply.headers.end());
  CHECK(busy_reason_text(reason::kDeadlock).find("(deadlock)") != std::string::npos);
  CHECK(busy_reason_text("database_busy") ==
        "the database stayed locked (database_busy); nothing was changed");
}
