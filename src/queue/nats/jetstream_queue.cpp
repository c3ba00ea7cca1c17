// Consuming from JetStream through a durable pull consumer.
#include "queue/nats/jetstream_queue.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/interrupt.h"
#include "core/limits.h"

namespace idemlab {

namespace {

constexpr const char* kDurable = "idemlab";
constexpr int64_t kNanosPerMs = 1'000'000;

std::string header_of(const LibNats& lib, natsMsg* msg, const char* key) {
  const char* value = nullptr;
  return lib.header_get(msg, key, &value) == NATS_OK && value != nullptr ? value : "";
}

}  // namespace

Result<std::unique_ptr<JetStreamQueue>> JetStreamQueue::open(const std::string& url,
                                                             const ConsumedQueueOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<JetStream> stream, JetStream::connect(url));
  RETURN_IF_ERROR(stream->expect_stream(options.queue));
  auto queue = std::make_unique<JetStreamQueue>(std::move(stream), options);
  RETURN_IF_ERROR(queue->subscribe());
  return queue;
}

JetStreamQueue::~JetStreamQueue() {
  const LibNats& lib = stream_->lib();
  // Fetched and never handed out, or handed out and never settled: naked, so that the next
  // consumer has them at once rather than after ack_wait.
  for (natsMsg* msg : fetched_) {
    (void)lib.nak(msg, nullptr);
    lib.msg_destroy(msg);
  }
  for (const auto& [handle, msg] : handed_out_) lib.msg_destroy(msg);
  if (subscription_ != nullptr) lib.subscription_destroy(subscription_);
}

// A consumer made before keeps its ack wait: a different one asked for is refused, not ignored.
Status JetStreamQueue::check_ack_wait() {
  if (options_.ack_wait_ms == 0) return Status::ok();
  const LibNats& lib = stream_->lib();
  jsConsumerInfo* info = nullptr;
  jsErrCode code = jsErrCode(0);
  const natsStatus status = lib.get_consumer_info(&info, stream_->context(), options_.queue.c_str(),
                                                  kDurable, nullptr, &code);
  if (status != NATS_OK) return Status::ok();  // none yet: subscribing makes it
  const int64_t kept_ms = info->Config->AckWait / kNanosPerMs;
  lib.consumer_info_destroy(info);
  if (kept_ms == options_.ack_wait_ms) return Status::ok();
  return Status::usage(fmt::format(
      "--ack-wait-ms {}: the consumer {} on {} was made with an ack wait of {} ms, which it "
      "keeps; leave the option out, or consume from a new stream",
      options_.ack_wait_ms, kDurable, options_.queue, kept_ms));
}

Status JetStreamQueue::subscribe() {
  RETURN_IF_ERROR(check_ack_wait());
  const LibNats& lib = stream_->lib();
  jsSubOptions options;
  lib.sub_options_init(&options);
  options.Stream = options_.queue.c_str();
  options.Config.Durable = kDurable;
  options.Config.AckPolicy = js_AckExplicit;
  options.Config.MaxDeliver = -1;  // bounded by the consumer itself: see jetstream_queue.h
  if (options_.ack_wait_ms > 0) options.Config.AckWait = options_.ack_wait_ms * kNanosPerMs;
  jsErrCode code = jsErrCode(0);
  const natsStatus status =
      lib.pull_subscribe(&subscription_, stream_->context(), options_.queue.c_str(), kDurable,
                         nullptr, &options, &code);
  if (status == NATS_OK) return Status::ok();
  return stream_->failure(status, code,
                          fmt::format("opening the consumer {} on {}", kDurable, options_.queue));
}

// Up to `prefetch` more deliveries, waiting at most `wait_ms` for the first.
Status JetStreamQueue::fetch(int wait_ms) {
  const LibNats& lib = stream_->lib();
  natsMsgList list{nullptr, 0};
  jsErrCode code = jsErrCode(0);
  const natsStatus status =
      lib.fetch(&list, subscription_, options_.prefetch, std::max(wait_ms, 1), &code);
  for (int i = 0; i < list.Count; ++i) {
    fetched_.push_back(list.Msgs[i]);
    list.Msgs[i] = nullptr;  // now ours: the list's destroy must not free it
  }
  lib.msg_list_destroy(&list);
  if (status == NATS_OK || status == NATS_TIMEOUT) return Status::ok();  // none within the wait
  // The server restarting under us: the client reconnects by itself; meanwhile the wait is
  // spent here, as it would have been on an idle queue.
  if (status == NATS_CONNECTION_DISCONNECTED || status == NATS_NO_RESPONDERS) {
    (void)sleep_unless_interrupted(wait_ms);
    return Status::ok();
  }
  return stream_->failure(status, code, "fetching from " + options_.queue);
}

Delivery JetStreamQueue::delivery_of(natsMsg* msg) {
  const LibNats& lib = stream_->lib();
  Delivery delivery;
  delivery.handle = DeliveryHandle{++handles_};
  delivery.body.assign(lib.msg_data(msg), static_cast<size_t>(lib.msg_data_length(msg)));
  delivery.message_id = header_of(lib, msg, kMessageIdHeader);
  jsMsgMetaData* meta = nullptr;
  if (lib.msg_metadata(&meta, msg) == NATS_OK) {
    delivery.deliveries = static_cast<int64_t>(meta->NumDelivered);
    delivery.redelivered = meta->NumDelivered > 1;
    lib.metadata_destroy(meta);
  }
  handed_out_[delivery.handle.id] = msg;
  return delivery;
}

Result<std::optional<Delivery>> JetStreamQueue::next(int wait_ms) {
  if (fetched_.empty()) RETURN_IF_ERROR(fetch(wait_ms));
  if (fetched_.empty()) return std::optional<Delivery>();
  natsMsg* msg = fetched_.front();
  fetched_.pop_front();
  return std::optional<Delivery>(delivery_of(msg));
}

Result<natsMsg*> JetStreamQueue::take(DeliveryHandle handle, const char* doing) {
  auto found = handed_out_.find(handle.id);
  if (found == handed_out_.end())
    return Status::internal(fmt::format("{} of a delivery this queue never handed out", doing));
  natsMsg* msg = found->second;
  handed_out_.erase(found);
  return msg;
}

Status JetStreamQueue::ack(DeliveryHandle handle) {
  ASSIGN_OR_RETURN(natsMsg * msg, take(handle, "an ack"));
  const LibNats& lib = stream_->lib();
  jsErrCode code = jsErrCode(0);
  const natsStatus status =
      options_.double_ack ? lib.ack_sync(msg, nullptr, &code) : lib.ack(msg, nullptr);
  lib.msg_destroy(msg);
  // An ack the server may not have had (it restarted under us): the delivery comes back after
  // ack_wait, and the strategy answers it as the repeat it is.
  if (status == NATS_OK || status == NATS_CONNECTION_DISCONNECTED || status == NATS_TIMEOUT)
    return Status::ok();
  return stream_->failure(status, code,
                          options_.double_ack ? "waiting for an ack's confirm" : "acking");
}

Status JetStreamQueue::requeue(DeliveryHandle handle) {
  ASSIGN_OR_RETURN(natsMsg * msg, take(handle, "a requeue"));
  const LibNats& lib = stream_->lib();
  const natsStatus status = lib.nak(msg, nullptr);
  lib.msg_destroy(msg);
  // A nak that did not reach the server leaves the delivery to come back after ack_wait.
  if (status == NATS_OK || status == NATS_CONNECTION_DISCONNECTED) return Status::ok();
  return stream_->failure(status, jsErrCode(0), "putting a delivery back");
}

Status JetStreamQueue::dead_letter(const Delivery& delivery, const std::string& reason) {
  const OutgoingMessage letter{delivery.body, delivery.message_id, ""};
  ASSIGN_OR_RETURN(const Confirm confirm, stream_->publish(dead_letter_queue_, letter,
                                                           defaults::kServerWaitS * 1000, reason));
  if (confirm == Confirm::kStored) return Status::ok();
  return Status::unavailable(
      "no_confirm", fmt::format("{} did not confirm the dead letter on {}: the message stays "
                                "on its queue",
                                stream_->location(), dead_letter_queue_));
}

}  // namespace idemlab
