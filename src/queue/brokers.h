// The brokers `publish` and `consume` speak, one row each, chosen by the URL's scheme: what the
// broker is called, what it can do, and how a queue on it is opened for the producer and for
// the consumer. Above this table nothing names a broker.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "queue/consumed_queue.h"
#include "queue/published_queue.h"

namespace idemlab {

// How the consumer's queue is opened. The queue (a stream on JetStream) must exist: consume
// never creates one.
struct ConsumedQueueOptions {
  std::string queue;
  int prefetch = 1;         // deliveries handed over before one is settled
  bool double_ack = false;  // each ack waited on until the server confirms it
  int ack_wait_ms = 0;      // a delivery not acked this long is delivered again (0: the broker's)
};

// How the producer's queue is opened, made if it is absent.
struct PublishedQueueOptions {
  std::string queue;
  int64_t duplicate_window_ms = 0;  // a stream made by publish dedups for this long (0: default)
};

struct BrokerKind {
  std::string_view scheme;      // "amqp"
  std::string_view tls_scheme;  // "amqps": its own client refuses it, in its own words
  std::string_view name;        // "RabbitMQ", for messages
  bool dedup_window;            // drops a repeat of a message's dedup id for a window of time
  bool double_ack;              // can confirm an ack
  bool redelivers_on_close;     // an unacked delivery comes back as soon as its consumer is gone
  Result<std::unique_ptr<ConsumedQueue>> (*open_consumed)(const std::string& url,
                                                          const ConsumedQueueOptions& options);
  Result<std::unique_ptr<PublishedQueue>> (*open_published)(const std::string& url,
                                                            const PublishedQueueOptions& options);
};

// The row of the URL's scheme; a usage error naming the schemes when there is none.
Result<const BrokerKind*> broker_of(const std::string& url);

// "amqp://USER:PASSWORD@HOST:PORT/ or nats://HOST:PORT", for help texts.
std::string broker_url_help();

}  // namespace idemlab
