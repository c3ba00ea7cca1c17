// The seam in front of the broker, for the consumer: what it takes from a queue and what it
// does with each delivery. BrokerQueue (broker_queue.h) is RabbitMQ; the unit tests put an
// in-memory queue in its place, so every ack, requeue and dead-letter decision is tested
// without a broker.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/status.h"

namespace idemlab {

struct Delivery {
  uint64_t tag = 0;
  std::string body;
  std::string message_id;  // empty if the producer set none
  bool redelivered = false;
};

class ConsumedQueue {
 public:
  virtual ~ConsumedQueue() = default;
  // The next delivery, or none when none came within `wait_ms`.
  virtual Result<std::optional<Delivery>> next(int wait_ms) = 0;
  // Settled: the broker forgets it.
  virtual Status ack(uint64_t tag) = 0;
  // Back to the queue, to be delivered again.
  virtual Status requeue(uint64_t tag) = 0;
  // Stored on the dead-letter queue with `reason`, confirmed, before the caller acks the
  // original: a crash in between sets it aside twice, never loses it.
  virtual Status dead_letter(const Delivery& delivery, const std::string& reason) = 0;
  // Where dead letters go, for messages ("q.dead").
  virtual const std::string& dead_letter_queue() const = 0;
};

}  // namespace idemlab
