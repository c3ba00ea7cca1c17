// The consumer's decision table.
#include "queue/settle.h"

#include <fmt/format.h>

#include "attempt/checked_transfer.h"

namespace idemlab {

namespace {

std::string answer_words(const Answer& answer) {
  std::string out(outcome_name(answer.outcome));
  if (answer.replayed) out += " (replayed)";
  if (!answer.reason.empty()) out += ": " + answer.reason;
  return out;
}

}  // namespace

Settlement settle_answer(const Answer& answer, int deliveries, int max_deliveries) {
  if (answer.outcome == Outcome::kApplied || answer.replayed) return {Settle::kAck, ""};
  if (is_input_rejection(answer) || answer.outcome == Outcome::kMismatch ||
      answer.outcome == Outcome::kTokenUnknown || answer.outcome == Outcome::kTokenUsed ||
      answer.outcome == Outcome::kTokenExpired)
    return {Settle::kDeadLetter, fmt::format("refused: {}", answer_words(answer))};
  if (answer.outcome == Outcome::kRejected) return {Settle::kAck, ""};  // recorded: replayed
  if (deliveries >= max_deliveries)
    return {Settle::kDeadLetter, fmt::format("not settled after {} deliveries; the last answer: {}",
                                             deliveries, answer_words(answer))};
  return {Settle::kRequeue, ""};
}

std::string_view settle_name(Settle settle) {
  switch (settle) {
    case Settle::kAck:
      return "acked";
    case Settle::kDeadLetter:
      return "dead-lettered";
    case Settle::kRequeue:
      break;
  }
  return "back to the queue";
}

}  // namespace idemlab
