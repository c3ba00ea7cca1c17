// Publishing each request until one of its messages is confirmed.
#include "queue/publisher.h"

#include <fmt/format.h>

#include "core/interrupt.h"
#include "core/random.h"
#include "queue/transfer_message.h"

namespace idemlab {

namespace {

bool confirm_dropped(const PublishSettings& settings, int64_t publish_number) {
  if (settings.confirm_lost_nth > 0) return publish_number == settings.confirm_lost_nth;
  Random random(settings.seed * 0x9e3779b97f4a7c15ULL ^
                static_cast<uint64_t>(publish_number) * 0xbf58476d1ce4e5b9ULL);
  return settings.confirm_lost_p > 0 && random.chance(settings.confirm_lost_p);
}

// An answer that is not a confirm, as the error it is.
Status refusal(const PublishedQueue& queue, Confirm confirm, const std::string& message_id) {
  if (confirm == Confirm::kReturned)
    return Status::usage(
        fmt::format("{} returned {}: no queue to route it to", queue.location(), message_id));
  return Status::unavailable("broker_nack",
                             fmt::format("{} refused to store {}", queue.location(), message_id));
}

// What the producer says of a publish it will repeat.
std::string again_line(const std::string& message_id, bool dropped, Confirm confirm,
                       const PublishSettings& settings, const std::string& biz_seq) {
  const char* what = !dropped ? "no confirm came"
                     : confirm == Confirm::kDuplicate
                         ? "its duplicate ack was lost (fault confirm-lost)"
                         : "its confirm was lost (fault confirm-lost)";
  const std::string when = settings.confirm_lost_delay_ms > 0 && dropped
                               ? fmt::format(" after {} ms", settings.confirm_lost_delay_ms)
                               : "";
  return fmt::format("{}: {}; publishing {} again{}", message_id, what, biz_seq, when);
}

// Publishes request `request` until a confirm is heard; each try is a message of its own.
Status publish_request(PublishedQueue& queue, const PublishSettings& settings,
                       const TransferRequest& request, PublishTally* tally,
                       const std::function<void(const std::string&)>& say) {
  OutgoingMessage message{message_body(request), "",
                          settings.dedup_by_business ? dedup_id_of(request) : ""};
  bool stored = false;
  for (int copy = 1; copy <= settings.max_copies; ++copy) {
    message.message_id = fmt::format("{}.{}", request.biz_seq, copy);
    ASSIGN_OR_RETURN(Confirm confirm, queue.publish(message, settings.confirm_wait_ms));
    if (confirm == Confirm::kReturned || confirm == Confirm::kNacked)
      return refusal(queue, confirm, message.message_id);
    ++tally->publishes;
    if (confirm == Confirm::kDuplicate) ++tally->duplicates;
    if (confirm == Confirm::kStored || confirm == Confirm::kNoConfirm) {
      // a publish with no confirm may have been stored: counted as RabbitMQ's always are
      ++tally->messages;
      tally->copies += stored;
      stored = true;
    }
    const bool heard = confirm == Confirm::kStored || confirm == Confirm::kDuplicate;
    const bool dropped = heard && confirm_dropped(settings, tally->publishes);
    if (heard && !dropped) return Status::ok();
    say(again_line(message.message_id, dropped, confirm, settings, request.biz_seq));
    if (dropped && settings.confirm_lost_delay_ms > 0 &&
        !sleep_unless_interrupted(settings.confirm_lost_delay_ms))
      return Status::interrupted("publish was interrupted");
  }
  return Status::unavailable(
      "no_confirm", fmt::format("{} was published {} times and never confirmed", request.biz_seq,
                                settings.max_copies));
}

}  // namespace

std::string dedup_id_of(const TransferRequest& request) {
  return request.source + "/" + request.biz_seq;
}

Status publish_transfers(PublishedQueue& queue, const PublishSettings& settings,
                         PublishTally* tally, const std::function<void(const std::string&)>& say) {
  for (int64_t n = 1; n <= settings.requests; ++n) {
    TransferRequest request = settings.payload;
    request.biz_seq = fmt::format("{}-{}", settings.prefix, n);
    RETURN_IF_ERROR(publish_request(queue, settings, request, tally, say));
    ++tally->requests;
  }
  return Status::ok();
}

}  // namespace idemlab
