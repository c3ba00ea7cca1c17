// Test seam: an in-memory queue in the broker's place (queue/consumed_queue.h). It hands out
// its messages in order, takes a requeued one back at the head with the redelivered flag set,
// as RabbitMQ does, and keeps what was acked and dead-lettered for the test to read.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "queue/consumed_queue.h"

namespace idemlab::test {

class FakeQueue final : public ConsumedQueue {
 public:
  void publish(std::string body, std::string message_id) {
    ready_.push_back(Delivery{{}, std::move(body), std::move(message_id), false});
  }

  Result<std::optional<Delivery>> next(int) override {
    if (ready_.empty()) return std::optional<Delivery>();
    Delivery delivery = std::move(ready_.front());
    ready_.pop_front();
    delivery.handle = DeliveryHandle{++handles_};
    unacked_[delivery.handle] = delivery;
    return std::optional<Delivery>(delivery);
  }
  Status ack(DeliveryHandle handle) override {
    if (unacked_.erase(handle) != 1) return Status::internal("ack of an unknown delivery");
    ++acked_;
    return Status::ok();
  }
  Status requeue(DeliveryHandle handle) override {
    auto found = unacked_.find(handle);
    if (found == unacked_.end()) return Status::internal("requeue of an unknown delivery");
    Delivery delivery = std::move(found->second);
    unacked_.erase(found);
    delivery.redelivered = true;
    ready_.push_front(std::move(delivery));
    ++requeued_;
    if (on_requeue) on_requeue(requeued_);
    return Status::ok();
  }
  Status dead_letter(const Delivery& delivery, const std::string& reason) override {
    dead_.emplace_back(delivery.body, reason);
    return Status::ok();
  }
  const std::string& dead_letter_queue() const override { return dead_name_; }

  int acked() const { return acked_; }
  int requeued() const { return requeued_; }
  size_t ready() const { return ready_.size(); }
  size_t unacked() const { return unacked_.size(); }
  const std::vector<std::pair<std::string, std::string>>& dead() const { return dead_; }

  std::function<void(int requeued)> on_requeue;  // after each requeue, with how many so far

 private:
  std::deque<Delivery> ready_;
  std::map<DeliveryHandle, Delivery> unacked_;
  std::vector<std::pair<std::string, std::string>> dead_;  // body, reason
  uint64_t handles_ = 0;
  int acked_ = 0;
  int requeued_ = 0;
  std::string dead_name_ = "q.dead";
};

}  // namespace idemlab::test
