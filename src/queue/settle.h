// What the consumer does with a delivery once its attempt has answered: the one table every
// ack, requeue and dead-letter decision of `idemlab consume` comes from, tested answer kind by
// answer kind (tests/unit/test_settle.cpp).
//   ack          settled: applied, the replay of any first answer, or a refusal the ledger
//                recorded (insufficient funds), which every redelivery gets again;
//   dead-letter  it can never apply as sent: the checks refused it (an unknown or the same
//                account, over the payer's limit, no key) or its key names another payload
//                (mismatch); kept on QUEUE.dead with the reason, never dropped;
//   requeue      not settled yet: busy, in progress, an unknown outcome (a connection lost
//                mid-attempt: the consumer's pool drops it, and the redelivery runs on one
//                resolved through the topology again), an error. Bounded: at the
//                `max_deliveries`-th delivery it is dead-lettered with the last answer.
#pragma once

#include <string>

#include "ledger/answer.h"

namespace idemlab {

enum class Settle : uint8_t { kAck, kDeadLetter, kRequeue };

struct Settlement {
  Settle settle = Settle::kAck;
  std::string why;  // for a dead letter: the reason it carries
};

// `deliveries`: how often this message has been delivered, this time included.
Settlement settle_answer(const Answer& answer, int deliveries, int max_deliveries);

std::string_view settle_name(Settle settle);  // "acked", "dead-lettered", ...

}  // namespace idemlab
