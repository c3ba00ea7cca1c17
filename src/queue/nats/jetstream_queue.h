// JetStreamQueue: a JetStream stream as the consumer takes it (consumed_queue.h), through the
// durable pull consumer "idemlab" on the queue's subject, shared by every consumer process
// (they take turns, as RabbitMQ's consumers of one queue do): acks explicit, one by one; a
// delivery not acked within ack_wait is delivered again, to whichever consumer fetches next
// (a consumer that died is not noticed sooner: JetStream has no connection to watch). Deliveries
// are fetched `prefetch` at a time. An ack is fire-and-forget unless asked double: then
// AckSync, waited on until the server confirms it stored the ack. A requeue is a nak, delivered
// again at once. Dead letters go to QUEUE.dead, a subject of the same stream, each published
// and acked before the original is.
//
// The server's own max_deliver is left unbounded: a message past it is no longer delivered but
// stays in the stream, settled by nobody. The consumer bounds deliveries instead (settle.h),
// dead-lettering a message at its Nth delivery, counted by the server (num_delivered).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <string>

#include "queue/brokers.h"
#include "queue/nats/jetstream.h"

namespace idemlab {

class JetStreamQueue final : public ConsumedQueue {
 public:
  static Result<std::unique_ptr<JetStreamQueue>> open(const std::string& url,
                                                      const ConsumedQueueOptions& options);
  ~JetStreamQueue() override;

  Result<std::optional<Delivery>> next(int wait_ms) override;
  Status ack(DeliveryHandle handle) override;
  Status requeue(DeliveryHandle handle) override;
  Status dead_letter(const Delivery& delivery, const std::string& reason) override;
  const std::string& dead_letter_queue() const override { return dead_letter_queue_; }

  JetStreamQueue(std::unique_ptr<JetStream> stream, const ConsumedQueueOptions& options)
      : stream_(std::move(stream)),
        options_(options),
        dead_letter_queue_(options.queue + ".dead") {}

 private:
  Status check_ack_wait();
  Status subscribe();
  Status fetch(int wait_ms);
  Result<natsMsg*> take(DeliveryHandle handle, const char* doing);
  Delivery delivery_of(natsMsg* msg);

  std::unique_ptr<JetStream> stream_;
  ConsumedQueueOptions options_;
  std::string dead_letter_queue_;
  natsSubscription* subscription_ = nullptr;
  std::deque<natsMsg*> fetched_;             // fetched, not handed out yet
  std::map<uint64_t, natsMsg*> handed_out_;  // handed out, not settled yet
  uint64_t handles_ = 0;
};

}  // namespace idemlab
