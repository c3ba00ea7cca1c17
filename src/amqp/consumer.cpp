// One delivery at a time: read, admit, attempt, then ack, requeue or dead-letter.
#include "amqp/consumer.h"

#include <fmt/format.h>

#include <algorithm>

#include "amqp/settle.h"
#include "amqp/transfer_message.h"
#include "core/clock.h"
#include "core/interrupt.h"
#include "core/limits.h"
#include "core/quote.h"
#include "ledger/money.h"

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
  Consumer(ConsumedQueue& queue, std::span<Connection> ledgers, const ConsumeSettings& settings,
           ConsumeTally* tally, const std::function<void(const std::string&)>& say)
      : queue_(queue), ledgers_(ledgers), settings_(settings), tally_(tally), say_(say) {}

  // Takes one delivery through to its settlement; an error stops the consumer.
  Status handle(const Delivery& delivery);

 private:
  Status set_aside(const Delivery& delivery, const std::string& head, const std::string& why);
  Result<AttemptSetup> admit_delivery(const Delivery& delivery, uint64_t number,
                                      std::string* carried, std::string* refused);
  Status settle(const Delivery& delivery, const Settlement& settlement, int deliveries);
  int count_delivery(const Delivery& delivery);

  ConsumedQueue& queue_;
  std::span<Connection> ledgers_;
  const ConsumeSettings& settings_;
  ConsumeTally* tally_;
  const std::function<void(const std::string&)>& say_;
  std::map<std::string, int> deliveries_;  // of each message not settled yet
};

// This delivery's number among the message's deliveries: the consumer's own count, begun at 2
// for a message the broker says was delivered before (to a consumer now gone).
int Consumer::count_delivery(const Delivery& delivery) {
  auto [entry, first] = deliveries_.try_emplace(delivery.message_id + '\n' + delivery.body, 0);
  if (first && delivery.redelivered) entry->second = 1;
  return ++entry->second;
}

Status Consumer::set_aside(const Delivery& delivery, const std::string& head,
                           const std::string& why) {
  RETURN_IF_ERROR(queue_.dead_letter(delivery, why));
  RETURN_IF_ERROR(queue_.ack(delivery.tag));
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
    return queue_.ack(delivery.tag);
  }
  const int64_t pause =
      std::min<int64_t>(limits::kMaxRequeuePauseMs,
                        int64_t{settings_.requeue_pause_ms} << std::min(deliveries - 1, 16));
  if (settlement.settle == Settle::kRequeue) (void)sleep_unless_interrupted(pause);
  ++tally_->requeued;
  if (settlement.settle == Settle::kRequeueAndStop || interrupt_signal() != 0)
    ++tally_->left_in_queue;
  return queue_.requeue(delivery.tag);
}

Status Consumer::handle(const Delivery& delivery) {
  const uint64_t number = static_cast<uint64_t>(++tally_->delivered);
  Connection& ledger = ledgers_[(number - 1) % ledgers_.size()];
  tally_->redelivered += delivery.redelivered;
  const int deliveries = count_delivery(delivery);
  const std::string head =
      fmt::format("delivery {}{} ({})", number, delivery.redelivered ? ", redelivered" : "",
                  printable(delivery.message_id));
  if (settings_.key_by_message_id && !validate_biz_seq(delivery.message_id).is_ok())
    return set_aside(delivery, head, "no usable message id to key it by");
  std::string carried, refused;
  Result<AttemptSetup> admitted = admit_delivery(delivery, number, &carried, &refused);
  if (!admitted.is_ok()) return set_aside(delivery, head, refused);
  const AttemptSetup& setup = *admitted;
  if (settings_.ack_on_receipt || settings_.key_by_message_id)
    RETURN_IF_ERROR(log_delivery(ledger, settings_, delivery, setup.request, carried));
  tally_->requests.insert(setup.request.source + "/" + carried);
  if (settings_.ack_on_receipt) RETURN_IF_ERROR(queue_.ack(delivery.tag));
  AttemptReport report;
  WallClock clock;
  if (Status failed = run_direct_attempt(ledger, clock, setup, &report); !failed.is_ok()) {
    if (!settings_.ack_on_receipt) (void)settle(delivery, {Settle::kRequeueAndStop, ""}, 0);
    return failed;
  }
  ++tally_->answers[answer_text(report.answer)];
  const Settlement settlement = settle_answer(report.answer, deliveries, settings_.max_deliveries);
  std::string line = fmt::format(
      "{}: {} {}→{} {}: {}", head, printable(carried), setup.request.from, setup.request.to,
      format_amount(setup.request.amount_minor), answer_text(report.answer));
  if (!report.commit_lsn.empty()) line += " at " + report.commit_lsn;  // PostgreSQL's WAL
  if (!report.node.empty()) line += " on " + report.node;              // a Galera node
  if (settings_.ack_on_receipt) {
    ++tally_->acked;
    say_(line + ", acked on receipt");
    return Status::ok();
  }
  if (settlement.settle == Settle::kDeadLetter) return set_aside(delivery, line, settlement.why);
  RETURN_IF_ERROR(settle(delivery, settlement, deliveries));
  say_(fmt::format("{}, {}", line, settle_name(settlement.settle)));
  if (settlement.settle == Settle::kRequeueAndStop)
    return Status::unavailable(
        "connection_lost",
        fmt::format("lost the connection to the ledger ({}); delivery {} went back to the queue",
                    report.lost_connection.empty() ? ledger.location() : report.lost_connection,
                    number));
  return Status::ok();
}

}  // namespace

Status consume_transfers(ConsumedQueue& queue, std::span<Connection> ledgers,
                         const ConsumeSettings& settings, ConsumeTally* tally,
                         const std::function<void(const std::string&)>& say) {
  constexpr int kSliceMs = 200;  // how often an endless consumer looks up
  Consumer consumer(queue, ledgers, settings, tally, say);
  int idle_ms = 0;
  while ((settings.until_idle_ms == 0 || idle_ms < settings.until_idle_ms) &&
         interrupt_signal() == 0) {
    const int wait = settings.until_idle_ms == 0
                         ? kSliceMs
                         : std::min(kSliceMs, settings.until_idle_ms - idle_ms);
    ASSIGN_OR_RETURN(std::optional<Delivery> delivery, queue.next(wait));
    if (!delivery) {
      idle_ms += wait;
      continue;
    }
    idle_ms = 0;
    RETURN_IF_ERROR(consumer.handle(*delivery));
  }
  return Status::ok();
}

}  // namespace idemlab
