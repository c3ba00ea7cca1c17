// JetStream: one NATS connection (the C client, nats.c) and its JetStream context, with what a
// producer and a consumer of transfer messages need: a stream named after the queue holding
// two subjects, QUEUE (the transfers) and QUEUE.dead (the dead letters), stored on disk, kept
// until a consumer acks (work-queue retention) and deduplicating a publish's Nats-Msg-Id for a
// window; and publishes waited on for their ack, which says whether the stream already had the
// id. The client reconnects by itself when the server restarts: a publish cut short by that is
// answered as a publish with no confirm.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "queue/nats/libnats.h"
#include "queue/published_queue.h"

namespace idemlab {

class JetStream {
 public:
  // nats://HOST:PORT[,nats://HOST:PORT...]. Unreachable: Status::ledger (exit 8).
  static Result<std::unique_ptr<JetStream>> connect(const std::string& url);
  ~JetStream();
  JetStream(const JetStream&) = delete;
  JetStream& operator=(const JetStream&) = delete;

  // The stream QUEUE, made if absent with `duplicate_window_ms` (0: the server's two minutes).
  // A stream that exists is taken as it is, its window too.
  Status make_stream(const std::string& queue, int64_t duplicate_window_ms);
  // Checks that the stream QUEUE exists, without making it: a usage error if not.
  Status expect_stream(const std::string& queue);
  // Publishes `message` on `subject`, its dedup id as Nats-Msg-Id, its message id (and a dead
  // letter's `reason`) in headers of idemlab's own; the ack waited on at most `wait_ms`.
  Result<Confirm> publish(const std::string& subject, const OutgoingMessage& message, int wait_ms,
                          const std::string& reason = "");

  // A failed call of the client's, as a Status naming the broker and what it was doing.
  Status failure(natsStatus status, jsErrCode code, const std::string& doing) const;
  const LibNats& lib() const { return *lib_; }
  jsCtx* context() const { return context_; }
  const std::string& location() const { return location_; }

 private:
  JetStream(const LibNats* lib, std::string location) : lib_(lib), location_(std::move(location)) {}

  const LibNats* lib_;
  std::string location_;
  natsConnection* connection_ = nullptr;
  jsCtx* context_ = nullptr;
};

// The message header carrying a message's own id (Nats-Msg-Id carries the dedup id).
inline constexpr const char* kMessageIdHeader = "Idemlab-Message-Id";
// A dead letter's reason.
inline constexpr const char* kReasonHeader = "Idemlab-Reason";

}  // namespace idemlab
