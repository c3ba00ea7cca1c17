// The seam in front of the broker, for the producer: a queue that stores messages and says so.
// RabbitPublisher (amqp/rabbit_publisher.h) is RabbitMQ, JetStreamPublisher
// (nats/jetstream_publisher.h) NATS JetStream, both opened by URL through brokers.h.
#pragma once

#include <string>

#include "core/status.h"

namespace idemlab {

// The broker's answer to one publish.
enum class Confirm {
  kStored,     // stored: it will be delivered
  kDuplicate,  // a message with its dedup id is already stored (inside JetStream's window)
  kReturned,   // no queue to route it to (RabbitMQ's mandatory flag)
  kNacked,     // refused
  kNoConfirm,  // nothing came within the wait: stored or not, nobody knows
};

// One message to publish: its body, its own id (a copy's, for the consumer's --key message-id)
// and the id the broker dedups by (empty: none).
struct OutgoingMessage {
  std::string body;
  std::string message_id;
  std::string dedup_id;
};

class PublishedQueue {
 public:
  virtual ~PublishedQueue() = default;
  // Publishes `message` and waits at most `wait_ms` for the broker's answer.
  virtual Result<Confirm> publish(const OutgoingMessage& message, int wait_ms) = 0;
  // The broker, for messages (the URL without its password).
  virtual const std::string& location() const = 0;
};

}  // namespace idemlab
