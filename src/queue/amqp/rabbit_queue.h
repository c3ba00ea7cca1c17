// RabbitQueue: a RabbitMQ queue as the consumer takes it (consumed_queue.h). Deliveries come on
// one connection; dead letters go out on a second, in confirm mode, opened when the first is
// set aside, so that a message is acked only once the broker has stored its dead-letter copy
// (a confirm awaited on the consuming channel would have to skip the deliveries it meets).
#pragma once

#include <memory>
#include <string>

#include "queue/amqp/broker.h"
#include "queue/consumed_queue.h"

namespace idemlab {

class RabbitQueue final : public ConsumedQueue {
 public:
  // Consumes `queue` (which must exist: consume never creates one) with `prefetch`.
  static Result<std::unique_ptr<RabbitQueue>> open(const std::string& url, const std::string& queue,
                                                   int prefetch);

  Result<std::optional<Delivery>> next(int wait_ms) override { return broker_.next(wait_ms); }
  Status ack(DeliveryHandle handle) override { return broker_.ack(handle.id); }
  Status requeue(DeliveryHandle handle) override { return broker_.reject(handle.id, true); }
  Status dead_letter(const Delivery& delivery, const std::string& reason) override;
  const std::string& dead_letter_queue() const override { return dead_letter_queue_; }

  RabbitQueue(Broker broker, std::string url, std::string queue)
      : broker_(std::move(broker)), url_(std::move(url)), dead_letter_queue_(queue + ".dead") {}

 private:
  Broker broker_;
  std::string url_;
  std::string dead_letter_queue_;
  std::unique_ptr<Broker> publisher_;  // the dead letters' connection, in confirm mode
};

}  // namespace idemlab
