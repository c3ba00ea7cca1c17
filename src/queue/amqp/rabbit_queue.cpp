// Consuming from RabbitMQ, and dead letters stored before their original is acked.
#include "queue/amqp/rabbit_queue.h"

#include <fmt/format.h>

#include <chrono>

#include "core/interrupt.h"
#include "core/limits.h"

namespace idemlab {

Result<std::unique_ptr<RabbitQueue>> RabbitQueue::open(const std::string& url,
                                                       const std::string& queue, int prefetch) {
  // A broker just restarted answers for a durable queue it is still recovering that it is
  // "down or inaccessible", and closes the channel: asked again on a new connection, a moment
  // later, until the server's wait is over.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(defaults::kServerWaitS);
  for (;;) {
    ASSIGN_OR_RETURN(Broker broker, Broker::connect(url));
    const Status found = broker.expect_queue(queue);
    if (found.reason() == "queue_recovering" && std::chrono::steady_clock::now() < deadline &&
        sleep_unless_interrupted(200))
      continue;
    RETURN_IF_ERROR(found);
    RETURN_IF_ERROR(broker.start_consuming(queue, prefetch));
    return std::make_unique<RabbitQueue>(std::move(broker), url, queue);
  }
}

Status RabbitQueue::dead_letter(const Delivery& delivery, const std::string& reason) {
  if (!publisher_) {
    ASSIGN_OR_RETURN(Broker publisher, Broker::connect(url_));
    RETURN_IF_ERROR(publisher.declare_queue(dead_letter_queue_));
    RETURN_IF_ERROR(publisher.enable_confirms());
    publisher_ = std::make_unique<Broker>(std::move(publisher));
  }
  ASSIGN_OR_RETURN(const Confirm confirm,
                   publisher_->publish(dead_letter_queue_, delivery.body, delivery.message_id,
                                       defaults::kServerWaitS * 1000, reason));
  if (confirm == Confirm::kStored) return Status::ok();
  return Status::unavailable(
      "no_confirm", fmt::format("{} did not confirm the dead letter on {}: the message stays "
                                "on its queue",
                                broker_.location(), dead_letter_queue_));
}

}  // namespace idemlab
