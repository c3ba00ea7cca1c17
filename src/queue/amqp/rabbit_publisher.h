// RabbitPublisher: a durable RabbitMQ queue as the producer takes it (published_queue.h): the
// queue declared if absent, the channel in confirm mode, each message persistent and
// `mandatory`. RabbitMQ dedups nothing: a message's dedup id is not sent.
#pragma once

#include <memory>
#include <string>

#include "queue/amqp/broker.h"
#include "queue/published_queue.h"

namespace idemlab {

class RabbitPublisher final : public PublishedQueue {
 public:
  static Result<std::unique_ptr<RabbitPublisher>> open(const std::string& url,
                                                       const std::string& queue);

  Result<Confirm> publish(const OutgoingMessage& message, int wait_ms) override {
    return broker_.publish(queue_, message.body, message.message_id, wait_ms);
  }
  const std::string& location() const override { return broker_.location(); }

  RabbitPublisher(Broker broker, std::string queue)
      : broker_(std::move(broker)), queue_(std::move(queue)) {}

 private:
  Broker broker_;
  std::string queue_;
};

}  // namespace idemlab
