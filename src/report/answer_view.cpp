// Answer views.
#include "report/answer_view.h"

#include <fmt/format.h>

#include "ledger/money.h"
#include "report/json.h"
#include "term/text.h"

namespace idemlab {

namespace {

std::string timeout_text(const AttemptReport& report) {
  if (report.answer.reason == reason::kIoErrorAtCommit)
    return "timeout: the disk failed while the transfer committed (io_error_at_commit); it may "
           "or may not have happened: retry with the same --biz-seq";
  if (!report.unreplicated.empty())
    return fmt::format(
        "timeout: the guard write stands on the guard store's primary alone ({}), and a failover "
        "may forget it; the transfer may or may not "
        "have happened: retry with the same --biz-seq",
        report.unreplicated);
  if (!report.lost_connection.empty())
    return fmt::format(
        "timeout: lost the connection to {}; the transfer may or may not have happened: retry "
        "with the same --biz-seq",
        report.lost_connection);
  return fmt::format(
      "timeout: no answer ({}); the transfer may or may not have happened: retry with the same "
      "--biz-seq",
      report.fault);
}

std::string busy_text(const AttemptReport& report) {
  const Answer& answer = report.answer;
  if (answer.reason == reason::kReadOnly)
    return fmt::format(
        "busy: a read-only server answered ({}): a failover may be under way, or the URL names "
        "a standby; nothing was written by it (read_only): retry with the same --biz-seq",
        report.lost_connection);
  if (answer.reason == reason::kNodeNotReady)
    return fmt::format(
        "busy: a cluster node that is not serving now answered ({}): nothing was written by it "
        "(node_not_ready): retry with the same --biz-seq",
        report.lost_connection);
  const std::string what = busy_reason_text(answer.reason);
  if (answer.reason == reason::kDiskFull)
    return "busy: " + what + ": free space, then retry with the same --biz-seq";
  if (answer.reason == reason::kOwnWriteUnseen)
    return "busy: " + what + ": retry, or read your writes (--read-your-writes)";
  return "busy: " + what + ": retry";
}

}  // namespace

std::string answer_text(const AttemptReport& report, const TransferRequest& request,
                        std::string_view strategy) {
  const Answer& answer = report.answer;
  const std::string& biz = request.biz_seq;
  switch (answer.outcome) {
    case Outcome::kApplied:
      if (answer.replayed)
        return fmt::format(
            "applied (replayed): {} was already applied; this is its first answer "
            "again ({})",
            biz, strategy);
      return fmt::format("applied: {} moved {} from {} to {} ({})", biz,
                         format_amount(request.amount_minor), request.from, request.to, strategy);
    case Outcome::kRejected:
      return fmt::format("rejected: {} ({}{})", answer.reason, biz,
                         answer.replayed ? ", the first answer replayed" : "");
    case Outcome::kMismatch:
      if (answer.reason == reason::kStrategySwitch)
        return fmt::format(
            "mismatch: biz_seq {} was served by {}; this is {} (pass "
            "--allow-strategy-switch to serve it anyway)",
            biz, report.served_by, strategy);
      return fmt::format("mismatch: {} was first sent with a different payload", biz);
    case Outcome::kInProgress:
      if (answer.reason == reason::kFenced)
        return fmt::format(
            "in_progress: the ledger refused this attempt's lock for {} (fenced): a later "
            "grant's fence is recorded, so this holder lost its lock; nothing was written: "
            "retry, and the retry finds what the newer holder did",
            biz);
      if (report.holder.by.empty())
        return fmt::format("in_progress: another attempt holds {}; retry later", biz);
      if (report.holder.until_ms < 0)
        return fmt::format("in_progress: {} is held by {} since {} ms; retry later", biz,
                           report.holder.by, report.holder.since_ms);
      return fmt::format("in_progress: {} is held by {} for another {}; retry after that", biz,
                         report.holder.by, duration_text(report.holder.retry_after_ms));
    case Outcome::kTokenUnknown:
      if (answer.reason == reason::kStoreLostOrNeverIssued)
        return "token_unknown: the guard store has no such token: it was never issued, or the "
               "store forgot it (it expired, or Redis restarted without persistence); the "
               "request may have moved money already: ask with idemlab query before fetching "
               "a new token";
      return "token_unknown: no such token";
    case Outcome::kTokenUsed:
      return "token_used: the token was consumed by another request";
    case Outcome::kTokenExpired:
      return "token_expired: the token expired before it was used";
    case Outcome::kTimeout:
      return timeout_text(report);
    case Outcome::kBusy:
      return busy_text(report);
    case Outcome::kError:
      return fmt::format("internal: {}", answer.reason);
  }
  return "";
}

nlohmann::ordered_json text_or_null(const std::string& text) {
  return text.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(text);
}

nlohmann::ordered_json answer_json(const AttemptReport& report, const TransferRequest& request,
                                   std::string_view strategy, Pitfall pitfall) {
  nlohmann::ordered_json holder = nullptr;
  if (!report.holder.by.empty())
    holder = {
        {"by", report.holder.by},
        {"since_ms", report.holder.since_ms},
        {"until_ms", report.holder.until_ms < 0 ? nlohmann::ordered_json()
                                                : nlohmann::ordered_json(report.holder.until_ms)},
        {"retry_after_ms", report.holder.until_ms < 0
                               ? nlohmann::ordered_json()
                               : nlohmann::ordered_json(report.holder.retry_after_ms)}};
  return {{"source", request.source},
          {"biz_seq", request.biz_seq},
          {"strategy", strategy},
          {"pitfall", pitfall_json(pitfall)},
          {"outcome", outcome_name(report.answer.outcome)},
          {"replayed", report.answer.replayed},
          {"reason", text_or_null(report.answer.reason)},
          {"from", request.from},
          {"to", request.to},
          {"amount_minor", request.amount_minor},
          {"fault", text_or_null(report.fault)},
          {"server_outcome", outcome_name(report.server_answer.outcome)},
          {"served_by", text_or_null(report.served_by)},
          {"lost_connection", text_or_null(report.lost_connection)},
          {"unreplicated", text_or_null(report.unreplicated)},
          {"holder", holder}};
}

}  // namespace idemlab
