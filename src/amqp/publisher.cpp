// Publishing each request until one of its messages is confirmed.
#include "amqp/publisher.h"

#include <fmt/format.h>

#include "amqp/transfer_message.h"
#include "core/random.h"

namespace idemlab {

namespace {

bool confirm_dropped(const PublishSettings& settings, int64_t publish_number) {
  if (settings.confirm_lost_nth > 0) return publish_number == settings.confirm_lost_nth;
  Random random(settings.seed * 0x9e3779b97f4a7c15ULL ^
                static_cast<uint64_t>(publish_number) * 0xbf58476d1ce4e5b9ULL);
  return settings.confirm_lost_p > 0 && random.chance(settings.confirm_lost_p);
}

// Publishes request `request` until a confirm is heard; each try is a message of its own.
Status publish_request(Broker& broker, const PublishSettings& settings,
                       const TransferRequest& request, PublishTally* tally,
                       const std::function<void(const std::string&)>& say) {
  const std::string body = message_body(request);
  for (int copy = 1; copy <= settings.max_copies; ++copy) {
    const std::string message_id = fmt::format("{}.{}", request.biz_seq, copy);
    ASSIGN_OR_RETURN(Confirm confirm,
                     broker.publish(settings.queue, body, message_id, settings.confirm_wait_ms));
    if (confirm == Confirm::kReturned)
      return Status::usage(fmt::format("{} returned {}: no queue {} to route it to",
                                       broker.location(), message_id, settings.queue));
    if (confirm == Confirm::kNacked)
      return Status::unavailable(
          "broker_nack", fmt::format("{} refused to store {}", broker.location(), message_id));
    ++tally->messages;
    tally->copies += copy > 1;
    const bool dropped = confirm == Confirm::kStored && confirm_dropped(settings, tally->messages);
    if (confirm == Confirm::kStored && !dropped) return Status::ok();
    say(fmt::format("{}: {}; publishing {} again", message_id,
                    dropped ? "its confirm was lost (fault confirm-lost)" : "no confirm came",
                    request.biz_seq));
  }
  return Status::unavailable(
      "no_confirm", fmt::format("{} was published {} times and never confirmed", request.biz_seq,
                                settings.max_copies));
}

}  // namespace

Status publish_transfers(Broker& broker, const PublishSettings& settings, PublishTally* tally,
                         const std::function<void(const std::string&)>& say) {
  RETURN_IF_ERROR(broker.declare_queue(settings.queue));
  RETURN_IF_ERROR(broker.enable_confirms());
  for (int64_t n = 1; n <= settings.requests; ++n) {
    TransferRequest request = settings.payload;
    request.biz_seq = fmt::format("{}-{}", settings.prefix, n);
    RETURN_IF_ERROR(publish_request(broker, settings, request, tally, say));
    ++tally->requests;
  }
  return Status::ok();
}

}  // namespace idemlab
