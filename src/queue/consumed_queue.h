// The seam in front of the broker, for the consumer: what it takes from a queue and what it
// does with each delivery. RabbitQueue (amqp/rabbit_queue.h) is RabbitMQ, JetStreamQueue
// (nats/jetstream_queue.h) NATS JetStream, both opened by URL through brokers.h; the unit tests
// put an in-memory queue in their place, so every ack, requeue and dead-letter decision is
// tested without a broker.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/status.h"

namespace idemlab {

// A delivery as the queue that handed it out knows it (AMQP's delivery tag; on JetStream, a
// number the queue keeps its message under): it means nothing to anyone else.
struct DeliveryHandle {
  uint64_t id = 0;
  friend auto operator<=>(const DeliveryHandle&, const DeliveryHandle&) = default;
};

struct Delivery {
  DeliveryHandle handle;
  std::string body;
  std::string message_id;    // empty if the producer set none
  bool redelivered = false;  // the broker delivered it before (to a consumer now gone)
  int64_t deliveries = 0;    // the broker's count of its deliveries, this one included (0: it
                             // keeps none; RabbitMQ's redelivered flag is all it says)
};

class ConsumedQueue {
 public:
  virtual ~ConsumedQueue() = default;
  // The next delivery, or none when none came within `wait_ms`.
  virtual Result<std::optional<Delivery>> next(int wait_ms) = 0;
  // Settled: the broker forgets it.
  virtual Status ack(DeliveryHandle handle) = 0;
  // Back to the queue, to be delivered again.
  virtual Status requeue(DeliveryHandle handle) = 0;
  // Stored on the dead-letter queue with `reason`, confirmed, before the caller acks the
  // original: a crash in between sets it aside twice, never loses it.
  virtual Status dead_letter(const Delivery& delivery, const std::string& reason) = 0;
  // Where dead letters go, for messages ("q.dead").
  virtual const std::string& dead_letter_queue() const = 0;
};

}  // namespace idemlab
