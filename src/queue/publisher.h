// The producer of `idemlab publish`: N transfer requests as persistent messages on a durable
// queue, each waited on for the broker's confirm. A confirm that does not come (or, with the
// confirm-lost fault, one the producer drops as if it never came) makes the producer publish
// the request again, at once or after a delay: a second message, with a message id of its own,
// of the same request. RabbitMQ stores both. JetStream, given the request's business key as the
// dedup id, drops the second if it comes within the stream's duplicate window, and says so in
// its publish ack; after the window it stores both.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/limits.h"
#include "ledger/request.h"
#include "queue/published_queue.h"

namespace idemlab {

struct PublishSettings {
  int64_t requests = 0;
  std::string prefix = "req";      // request N's biz_seq is PREFIX-N
  TransferRequest payload;         // source, from, to and amount of every request
  bool dedup_by_business = false;  // the business key as the broker's dedup id (JetStream's)
  double confirm_lost_p = 0;       // the chance that a publish's confirm is dropped
  int64_t confirm_lost_nth = 0;    // or: the Nth publish's (counting copies)
  int confirm_lost_delay_ms = 0;   // how long the producer waits before publishing again
  uint64_t seed = 1;
  int confirm_wait_ms = defaults::kConfirmWaitMs;
  int max_copies = defaults::kMaxPublishCopies;  // published this often without a confirm: error
};

struct PublishTally {
  int64_t requests = 0;
  int64_t publishes = 0;   // every publish sent, copies included
  int64_t messages = 0;    // every publish the broker stored, copies included
  int64_t copies = 0;      // stored messages beyond the first of their request
  int64_t duplicates = 0;  // publish acks saying the broker already had the dedup id
};

// The business key a message carries as its dedup id: SOURCE/BIZ_SEQ.
std::string dedup_id_of(const TransferRequest& request);

Status publish_transfers(PublishedQueue& queue, const PublishSettings& settings,
                         PublishTally* tally, const std::function<void(const std::string&)>& say);

}  // namespace idemlab
