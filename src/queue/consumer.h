// The consumer of `idemlab consume`: each delivery is one attempt of a strategy, through the
// front door every transport uses, then settled as settle.h's table says:
//   - ack after-commit (the default): acked once the attempt is settled (applied, replayed, or
//     a refusal the ledger recorded); a request that can never apply as sent is dead-lettered
//     with its reason, never dropped; anything else goes back to the queue, at most
//     `max_deliveries` times (the consumer's own count, and the broker's redelivered flag for a
//     message another consumer had), then it is dead-lettered with its last answer. A consumer
//     killed between its commit and its ack gets the message delivered again, and the strategy
//     must answer that redelivery as a repeat;
//   - ack on-receipt (the pitfall ack-on-receipt): acked before the work, so a consumer that
//     dies mid-work loses the message, and the money never moves.
// The key is the business request's (source and biz_seq, the default) or the broker's message
// id (001's "Topic + Offset", the pitfall message-key), which lets a producer's second copy of
// one request through.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "attempt/front_door.h"
#include "attempt/request_faults.h"
#include "db/link_pool.h"
#include "queue/consumed_queue.h"

namespace idemlab {

struct ConsumeSettings {
  AttemptPolicy policy;  // the strategy, its pitfall and options; faults are drawn per delivery
  bool ack_on_receipt = false;
  bool key_by_message_id = false;
  RequestFaults faults;           // crash and slow, drawn per delivery
  bool read_your_writes = false;  // with a standby: its "not found" trusted once caught up
  int until_idle_ms = 0;          // stop once no delivery came this long; 0: never
  int max_deliveries = 10;        // a message not settled by its Nth delivery is dead-lettered
  int requeue_pause_ms = 0;       // before a requeue, doubled each time (bounded): a failing ledger
                                  // gets time to heal; the unit tests use 0
  std::string queue;              // the queue consumed, as the delivery log names it
};

struct ConsumeTally {
  int64_t delivered = 0;
  int64_t redelivered = 0;  // delivered with the broker's redelivered flag
  int64_t acked = 0;
  int64_t requeued = 0;           // back to the queue: not settled yet
  int64_t dead_lettered = 0;      // set aside on QUEUE.dead with the reason, then acked
  int64_t left_in_queue = 0;      // requeued when the consumer stopped (interrupted, an error)
  int64_t reconnects = 0;         // deliveries put back untried: the ledger could not be reached
  std::string first_dead_letter;  // its reason, for the summary
  std::map<std::string, int64_t> answers;  // "applied", "applied (replayed)", "rejected", ...
  std::set<std::string> requests;          // the business requests the deliveries carried
};

// Consumes until idle (or forever, or a signal); `say` gets one line per delivery. Each
// delivery borrows a set of links from `pool` (db/link_pool.h), taking the next node's turn on
// a Galera cluster (each line then names the node that served it). A link lost mid-attempt
// leaves that delivery's outcome unknown: it goes back to the queue and the pool drops the
// links. A ledger that cannot be reached at all (a failover under way) puts each delivery back
// untried, with a growing pause, until it is reached again; that wait counts as idle time.
Status consume_transfers(ConsumedQueue& queue, LinkPool& pool, const ConsumeSettings& settings,
                         ConsumeTally* tally, const std::function<void(const std::string&)>& say);

}  // namespace idemlab
