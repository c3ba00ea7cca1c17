// The producer of `idemlab publish`: N transfer requests as persistent messages on a durable
// queue, each waited on for the broker's confirm. A confirm that does not come (or, with the
// confirm-lost fault, one the producer drops as if it never came) makes the producer publish
// the request again: a second message, with a message id of its own, of the same request. The
// broker stored both.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "amqp/broker.h"
#include "core/limits.h"
#include "ledger/request.h"

namespace idemlab {

struct PublishSettings {
  std::string queue;
  int64_t requests = 0;
  std::string prefix = "req";    // request N's biz_seq is PREFIX-N
  TransferRequest payload;       // source, from, to and amount of every request
  double confirm_lost_p = 0;     // the chance that a publish's confirm is dropped
  int64_t confirm_lost_nth = 0;  // or: the Nth publish's (counting copies)
  uint64_t seed = 1;
  int confirm_wait_ms = defaults::kConfirmWaitMs;
  int max_copies = defaults::kMaxPublishCopies;  // published this often without a confirm: error
};

struct PublishTally {
  int64_t requests = 0;
  int64_t messages = 0;  // every publish the broker stored, copies included
  int64_t copies = 0;    // messages beyond the first of their request
};

Status publish_transfers(Broker& broker, const PublishSettings& settings, PublishTally* tally,
                         const std::function<void(const std::string&)>& say);

}  // namespace idemlab
