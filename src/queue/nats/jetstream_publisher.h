// JetStreamPublisher: a JetStream stream as the producer takes it (published_queue.h): made if
// absent (with publish's duplicate window), each message published on the queue's subject and
// waited on for its ack; a message's dedup id is its Nats-Msg-Id.
#pragma once

#include <memory>
#include <string>

#include "queue/brokers.h"
#include "queue/nats/jetstream.h"

namespace idemlab {

class JetStreamPublisher final : public PublishedQueue {
 public:
  static Result<std::unique_ptr<JetStreamPublisher>> open(const std::string& url,
                                                          const PublishedQueueOptions& options);

  Result<Confirm> publish(const OutgoingMessage& message, int wait_ms) override {
    return stream_->publish(queue_, message, wait_ms);
  }
  const std::string& location() const override { return stream_->location(); }

  JetStreamPublisher(std::unique_ptr<JetStream> stream, std::string queue)
      : stream_(std::move(stream)), queue_(std::move(queue)) {}

 private:
  std::unique_ptr<JetStream> stream_;
  std::string queue_;
};

}  // namespace idemlab
