// Tests for queue/settle: what the consumer does with each kind of answer.
#include <doctest/doctest.h>

#include "queue/settle.h"

using namespace idemlab;

namespace {
Answer replayed(Answer answer) {
  answer.replayed = true;
  return answer;
}
}  // namespace

TEST_CASE("every answer kind is acked, requeued, dead-lettered or stops the consumer") {
  struct Row {
    Answer answer;
    Settle first;  // at the first delivery of 3 allowed
    Settle last;   // at the third
  };
  const Row rows[] = {
      {Answer::of(Outcome::kApplied), Settle::kAck, Settle::kAck},
      {replayed(Answer::of(Outcome::kApplied)), Settle::kAck, Settle::kAck},
      {Answer::of(Outcome::kRejected, reason::kInsufficientFunds), Settle::kAck, Settle::kAck},
      {replayed(Answer::of(Outcome::kRejected, reason::kInsufficientFunds)), Settle::kAck,
       Settle::kAck},
      {Answer::of(Outcome::kRejected, reason::kUnknownAccount), Settle::kDeadLetter,
       Settle::kDeadLetter},
      {Answer::of(Outcome::kRejected, reason::kSameAccount), Settle::kDeadLetter,
       Settle::kDeadLetter},
      {Answer::of(Outcome::kRejected, reason::kOverLimit), Settle::kDeadLetter,
       Settle::kDeadLetter},
      {Answer::of(Outcome::kRejected, reason::kMissingKey), Settle::kDeadLetter,
       Settle::kDeadLetter},
      {Answer::of(Outcome::kMismatch), Settle::kDeadLetter, Settle::kDeadLetter},
      {Answer::of(Outcome::kTokenUnknown), Settle::kDeadLetter, Settle::kDeadLetter},
      {Answer::of(Outcome::kInProgress), Settle::kRequeue, Settle::kDeadLetter},
      {Answer::of(Outcome::kBusy, reason::kDatabaseBusy), Settle::kRequeue, Settle::kDeadLetter},
      {Answer::of(Outcome::kBusy, reason::kDiskFull), Settle::kRequeue, Settle::kDeadLetter},
      {Answer::of(Outcome::kTimeout, reason::kIoErrorAtCommit), Settle::kRequeue,
       Settle::kDeadLetter},
      {Answer::of(Outcome::kError, "disk I/O error"), Settle::kRequeue, Settle::kDeadLetter},
      {Answer::of(Outcome::kTimeout, reason::kConnectionLost), Settle::kRequeue,
       Settle::kDeadLetter},
      {Answer::of(Outcome::kBusy, reason::kReadOnly), Settle::kRequeue, Settle::kDeadLetter},
      {Answer::of(Outcome::kBusy, reason::kNodeNotReady), Settle::kRequeue, Settle::kDeadLetter},
  };
  for (const Row& row : rows) {
    CAPTURE(outcome_name(row.answer.outcome));
    CAPTURE(row.answer.reason);
    CHECK(settle_answer(row.answer, 1, 3).settle == row.first);
    CHECK(settle_answer(row.answer, 3, 3).settle == row.last);
  }
}

TEST_CASE("a dead letter says why: the refusal, or the last answer after the bound") {
  CHECK(settle_answer(Answer::of(Outcome::kRejected, reason::kUnknownAccount), 1, 5).why ==
        "refused: rejected: unknown_account");
  CHECK(settle_answer(Answer::of(Outcome::kError, "disk I/O error"), 5, 5).why ==
        "not settled after 5 deliveries; the last answer: error: disk I/O error");
}
