// One delivery at a time: read, admit, attempt, then ack, requeue or dead-letter.
#include "queue/consumer.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/clock.h"
#include "core/interrupt.h"
#include "core/limits.h"
#include "core/quote.h"
#include "ledger/money.h"
#include "queue/settle.h"
#include "queue/transfer_message.h"

namespace idemlab {

namespace {

std::string answer_text(const Answer& answer) {
  std::string out(outcome_name(answer.outcome));
  if (answer.replayed) out += " (replayed)";
  if (!answer.reason.empty() && answer.outcome != Outcome::kApplied) out += ": " + answer.reason;
  return out;
}

// The consumer's record of a delivery, before it acts on it: the audit reads it to name a
// request acked on receipt and never answered, or one that moved money once per message. Only
// those two pitfalls write it: acked after the commit and keyed by the request, a delivery can
// do neither, and the record would cost a commit of its own per delivery (bench-consume: a
// worst ratio of 0.66 with it, against 0.88 without).
Status log_delivery(Connection& ledger, const ConsumeSettings& settings, const Delivery& delivery,
                    const TransferRequest& request, const std::string& carried) {
  StepResult logged =
      ledger.run(Stmt::kLogDelivery,
                 {{":queue", settings.queue},
                  {":message_id", delivery.message_id},
                  {":redelivered", int64_t{delivery.redelivered ? 1 : 0}},
                  {":source", request.source},
                  {":biz_seq", carried},
                  {":keyed_by", request.biz_seq},
                  {":ack", std::string(settings.ack_on_receipt ? "on-receipt" : "after-commit")},
                  {":now", WallClock().now_ms()}});
  return logged.ok() ? Status::ok() : step_error(ledger, logged);
}

class Consumer {
 public:
  Consumer(ConsumedQueue& queue, LinkPool& pool, const ConsumeSettings& settings,
           ConsumeTally* tally, const std::function<void(const std::string&)>& say)
      : queue_(queue), pool_(pool), settings_(settings), tally_(tally), say_(say) {}

  // Takes one delivery through to its settlement; an error stops the consumer.
  Status handle(const Delivery& delivery);
  // How long the consumer has waited, since the ledger was last reached, for it to be reached
  // again (0: it was reached at the last delivery): counted as idle against --until-idle.
  int64_t unreachable_ms() const { return unreachable_ms_; }

 private:
  Status set_aside(const Delivery& delivery, const std::string& head, const std::string& why);
  Result<AttemptSetup> admit_delivery(const Delivery& delivery, uint64_t number,
                                      std::string* carried, std::string* refused);
  Status settle(const Delivery& delivery, const Settlement& settlement, int deliveries);
  int count_delivery(const Delivery& delivery);
  Status unreachable(const Delivery& delivery, const std::string& head, const Status& why);
  Status attempt(const Delivery& delivery, const std::string& head, Links& links,
                 AttemptSetup& setup, const std::string& carried, int deliveries);

  ConsumedQueue& queue_;
  LinkPool& pool_;
  const ConsumeSettings& settings_;
  ConsumeTally* tally_;
  const std::function<void(const std::string&)>& say_;
  std::map<std::string, int> deliveries_;  // of each message not settled yet
  int unreachable_ = 0;                    // deliveries in a row that found the ledger unreachable
  int64_t unreachable_ms_ = 0;
};

// This delivery's number among the message's deliveries: the broker's count where it keeps
// one (JetStream), else the consumer's own, begun at 2 for a message the broker says was
// delivered before (to a consumer now gone).
int Consumer::count_delivery(const Delivery& delivery) {
  auto [entry, first] = deliveries_.try_emplace(delivery.message_id + '\n' + delivery.body, 0);
  if (first && delivery.redelivered) entry->second = 1;
  entry->second = static_cast<int>(std::max<int64_t>(entry->second + 1, delivery.deliveries));
  return entry->second;
}

Status Consumer::set_aside(const Delivery& delivery, const std::string& head,
                           const std::string& why) {
  RETURN_IF_ERROR(queue_.dead_letter(delivery, why));
  RETURN_IF_ERROR(queue_.ack(delivery.handle));
  deliveries_.erase(delivery.message_id + '\n' + delivery.body);
  if (tally_->dead_lettered++ == 0) tally_->first_dead_letter = why;
  say_(fmt::format("{}: {}, set aside on {}", head, why, queue_.dead_letter_queue()));
  return Status::ok();
}

// The request through the front door; `carried` gets the biz_seq the message carries (the
// attempt's key unless it is keyed by the message id), `refused` why it was refused.
Result<AttemptSetup> Consumer::admit_delivery(const Delivery& delivery, uint64_t number,
                                              std::string* carried, std::string* refused) {
  RequestText text;
  std::string why;
  if (!read_message_body(delivery.body, &text, &why)) {
    *refused = "not a transfer (" + why + ")";
    return Status::usage(*refused);
  }
  *carried = text.key.value_or("");
  if (settings_.key_by_message_id) text.key = delivery.message_id;
  AttemptPolicy policy = settings_.policy;
  policy.faults = settings_.faults.draw(number);
  Result<AttemptSetup> admitted = admit(text, policy);
  if (!admitted.is_ok()) *refused = "refused: " + admitted.status().message();
  return admitted;
}

Status Consumer::settle(const Delivery& delivery, const Settlement& settlement, int deliveries) {
  if (settlement.settle == Settle::kAck) {
    deliveries_.erase(delivery.message_id + '\n' + delivery.body);
    ++tally_->acked;
    return queue_.ack(delivery.handle);
  }
  const int64_t pause =
      std::min<int64_t>(limits::kMaxRequeuePauseMs,
                        int64_t{settings_.requeue_pause_ms} << std::min(deliveries - 1, 16));
  (void)sleep_unless_interrupted(pause);
  ++tally_->requeued;
  if (interrupt_signal() != 0) ++tally_->left_in_queue;
  return queue_.requeue(delivery.handle);
}

// The ledger (or its guard store) could not be reached for this delivery: during a failover
// the topology has no primary for a moment. The message goes back untried, and does not count
// as one of its deliveries; the pause doubles while it lasts. Anything but a passing condition
// (a usage error, a signal) stops the consumer.
Status Consumer::unreachable(const Delivery& delivery, const std::string& head, const Status& why) {
  const bool passing = why.code() == StatusCode::kUnavailable || why.code() == StatusCode::kBusy ||
                       why.code() == StatusCode::kLedger;
  RETURN_IF_ERROR(queue_.requeue(delivery.handle));
  ++tally_->requeued;
  if (!passing || interrupt_signal() != 0) {
    ++tally_->left_in_queue;
    return why;
  }
  const int64_t pause =
      std::min<int64_t>(limits::kMaxRequeuePauseMs, std::max<int64_t>(1, settings_.requeue_pause_ms)
                                                        << std::min(unreachable_++, 16));
  ++tally_->reconnects;
  say_(
      fmt::format("{}: the ledger cannot be reached now ({}); back to the queue untried, "
                  "reconnecting in {} ms",
                  head, why.message(), pause));
  (void)sleep_unless_interrupted(pause);
  unreachable_ms_ += pause;
  return Status::ok();
}

Status Consumer::handle(const Delivery& delivery) {
  const uint64_t number = static_cast<uint64_t>(++tally_->delivered);
  tally_->redelivered += delivery.redelivered;
  const std::string head =
      fmt::format("delivery {}{} ({})", number, delivery.redelivered ? ", redelivered" : "",
                  printable(delivery.message_id));
  Result<LinkPool::Lease> lease = pool_.acquire();
  if (!lease.is_ok()) return unreachable(delivery, head, lease.status());
  if (unreachable_ > 0) say_(fmt::format("{}: the ledger is reached again", head));
  unreachable_ = 0;
  unreachable_ms_ = 0;
  const int deliveries = count_delivery(delivery);
  if (settings_.key_by_message_id && !validate_biz_seq(delivery.message_id).is_ok())
    return set_aside(delivery, head, "no usable message id to key it by");
  std::string carried, refused;
  Result<AttemptSetup> admitted = admit_delivery(delivery, number, &carried, &refused);
  if (!admitted.is_ok()) return set_aside(delivery, head, refused);
  return attempt(delivery, head, **lease, *admitted, carried, deliveries);
}

// One attempt on `links`, then the delivery settled by its answer. A link lost on the way is
// an unknown outcome: the message goes back, and the pool drops the links when the lease ends.
Status Consumer::attempt(const Delivery& delivery, const std::string& head, Links& links,
                         AttemptSetup& setup, const std::string& carried, int deliveries) {
  if (settings_.ack_on_receipt || settings_.key_by_message_id)
    RETURN_IF_ERROR(log_delivery(links.ledger, settings_, delivery, setup.request, carried));
  tally_->requests.insert(setup.request.source + "/" + carried);
  if (settings_.ack_on_receipt) RETURN_IF_ERROR(queue_.ack(delivery.handle));
  setup.guard_store = links.guards.get();
  std::optional<ReadSplit> reads;
  if (links.standby.is_open())
    setup.reads = &reads.emplace(links.standby, links.ledger, settings_.read_your_writes);
  AttemptReport report;
  WallClock clock;
  if (Status failed = run_direct_attempt(links.ledger, clock, setup, &report); !failed.is_ok()) {
    if (settings_.ack_on_receipt) return failed;
    if (!is_link_loss(failed) && failed.code() != StatusCode::kBusy) {
      (void)queue_.requeue(delivery.handle);
      ++tally_->requeued;
      ++tally_->left_in_queue;
      return failed;
    }
    report.answer = Answer::of(Outcome::kTimeout, reason::kConnectionLost);
    report.lost_connection = failed.message();
  }
  ++tally_->answers[answer_text(report.answer)];
  const Settlement settlement = settle_answer(report.answer, deliveries, settings_.max_deliveries);
  std::string line = fmt::format(
      "{}: {} {}→{} {}: {}", head, printable(carried), setup.request.from, setup.request.to,
      format_amount(setup.request.amount_minor), answer_text(report.answer));
  line += where_ran_text(report.where);
  if (links.lost()) line += " (link lost: " + report.lost_connection + ")";
  if (settings_.ack_on_receipt) {
    ++tally_->acked;
    say_(line + ", acked on receipt");
    return Status::ok();
  }
  if (settlement.settle == Settle::kDeadLetter) return set_aside(delivery, line, settlement.why);
  RETURN_IF_ERROR(settle(delivery, settlement, deliveries));
  say_(fmt::format("{}, {}", line, settle_name(settlement.settle)));
  return Status::ok();
}

}  // namespace

Status consume_transfers(ConsumedQueue& queue, LinkPool& pool, const ConsumeSettings& settings,
                         ConsumeTally* tally, const std::function<void(const std::string&)>& say) {
  constexpr int kSliceMs = 200;  // how often an endless consumer looks up
  Consumer consumer(queue, pool, settings, tally, say);
  int idle_ms = 0;
  while ((settings.until_idle_ms == 0 || idle_ms < settings.until_idle_ms) &&
         interrupt_signal() == 0) {
    const int wait = settings.until_idle_ms == 0
                         ? kSliceMs
                         : std::min(kSliceMs, settings.until_idle_ms - idle_ms);
    Result<std::optional<Delivery>> next = queue.next(wait);
    if (!next.is_ok() && interrupt_signal() != 0) break;  // the signal cut the wait: a stop
    ASSIGN_OR_RETURN(std::optional<Delivery> delivery, std::move(next));
    if (!delivery) {
      idle_ms += wait;
      continue;
    }
    RETURN_IF_ERROR(consumer.handle(*delivery));
    idle_ms = static_cast<int>(consumer.unreachable_ms());  // waiting for the ledger is idle
  }
  if (consumer.unreachable_ms() > 0)
    return Status::unavailable("connection_lost",
                               fmt::format("the ledger could not be reached for {} ms; what was "
                                           "taken went back to the queue untried",
                                           consumer.unreachable_ms()));
  return Status::ok();
}

}  // namespace idemlab
