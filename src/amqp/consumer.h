// The consumer of `idemlab consume`: each delivery is one attempt of a strategy, through the
// same code as a strategy subcommand, then acked or left for redelivery:
//   - ack after-commit (the default): acked once the attempt has a definitive answer (applied,
//     replayed, refused); a busy ledger or a lost connection rejects it back to the queue. A
//     consumer killed between its commit and its ack gets the message delivered again, and the
//     strategy must answer that redelivery as a repeat;
//   - ack on-receipt (autocommit): acked before the work, so a consumer that dies mid-work loses
//     the message, and the money never moves.
// The key is the business request's (source and biz_seq, the default) or the broker's message
// id (001's "Topic + Offset"), which lets a producer's second copy of one request through.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "amqp/broker.h"
#include "attempt/direct.h"
#include "attempt/request_faults.h"

namespace idemlab {

struct ConsumeSettings {
  const Strategy* strategy = nullptr;
  StrategyOptions options;  // pitfall, lock TTL, unique index
  bool ack_on_receipt = false;
  bool key_by_message_id = false;
  RequestFaults faults;           // crash and slow, drawn per delivery
  int until_idle_ms = 0;          // stop once no delivery came this long; 0: never
  std::string queue;              // the queue consumed, as the delivery log names it
  std::string dead_letter_queue;  // where a message that is not a transfer goes
};

struct ConsumeTally {
  int64_t delivered = 0;
  int64_t redelivered = 0;  // delivered with the broker's redelivered flag
  int64_t acked = 0;
  int64_t rejected = 0;       // back to the queue: the answer was not definitive
  int64_t dead_lettered = 0;  // not a transfer: set aside on QUEUE.dead with the reason, acked
  std::map<std::string, int64_t> answers;  // "applied", "applied (replayed)", "rejected", ...
  std::set<std::string> requests;          // the business requests the deliveries carried
};

// Consumes until idle (or forever); `say` gets one line per delivery.
Status consume_transfers(Broker& broker, Connection& ledger, GuardStore* guards,
                         const ConsumeSettings& settings, ConsumeTally* tally,
                         const std::function<void(const std::string&)>& say);

}  // namespace idemlab
