// Broker: one AMQP 0-9-1 connection to RabbitMQ (rabbitmq-c), on channel 1, with what a
// producer and a consumer of transfer messages need: a durable queue, persistent messages
// published with `mandatory` and waited on for the broker's confirm (a basic.ack alone does not
// mean stored: an unroutable message is returned first, then acked), and deliveries taken with
// a prefetch, acked or rejected one by one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "queue/amqp/librabbitmq.h"
#include "queue/consumed_queue.h"
#include "queue/published_queue.h"

namespace idemlab {

class Broker {
 public:
  // amqp://USER:PASSWORD@HOST:PORT/VHOST[?connect_timeout=S]. Unreachable or refused:
  // Status::ledger (exit 8); a broker that accepts and says nothing within the wait: no_answer
  // (exit 75). amqps:// is refused: this client speaks no TLS.
  static Result<Broker> connect(const std::string& url);
  Broker(Broker&& other) noexcept;
  Broker& operator=(Broker&&) = delete;
  ~Broker();

  Status declare_queue(const std::string& queue);  // durable, idempotent
  // Checks that `queue` exists, without making it (a passive declare): a usage error if not.
  Status expect_queue(const std::string& queue);
  Status enable_confirms();
  // A persistent message, `mandatory`; then the broker's answer, waited on at most `wait_ms`.
  // `reason`, if any, goes in the x-idemlab-reason header (a dead letter's).
  Result<Confirm> publish(const std::string& queue, const std::string& body,
                          const std::string& message_id, int wait_ms,
                          const std::string& reason = "");
  Status start_consuming(const std::string& queue, int prefetch);
  // The next delivery, or nullopt when none came within `wait_ms`.
  Result<std::optional<Delivery>> next(int wait_ms);
  Status ack(uint64_t tag);
  Status reject(uint64_t tag, bool requeue);
  const std::string& location() const { return location_; }

 private:
  Broker() = default;
  Status check(const amqp_rpc_reply_t& reply, const char* doing) const;
  Status lost(const std::string& doing, const std::string& why) const;
  Status skip_other_frame();
  Status open_socket(const amqp_connection_info& info, int wait_s);
  Status log_in(const amqp_connection_info& info, int wait_s);

  const LibRabbitmq* lib_ = nullptr;
  amqp_connection_state_t connection_ = nullptr;
  std::string location_;  // the URL without its password, for messages
};

}  // namespace idemlab
