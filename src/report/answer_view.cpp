// Answer views.
#include "report/answer_view.h"

#include <fmt/format.h>

#include "ledger/money.h"

namespace idemlab {

std::string answer_text(const AttemptReport& report, const TransferRequest& request,
                        std::string_view strategy) {
  const Answer& answer = report.answer;
  const std::string& biz = request.biz_seq;
  switch (answer.outcome) {
    case Outcome::kApplied:
      return fmt::format("applied: {} moved {} from {} to {} ({})", biz,
                         format_amount(request.amount_minor), request.from, request.to, strategy);
    case Outcome::kReplayed:
      return fmt::format("replayed: {} was already applied; this is its first answer again ({})",
                         biz, strategy);
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
      return fmt::format("in_progress: another attempt holds {}; retry later", biz);
    case Outcome::kTokenUnknown:
      return "token_unknown: no such token";
    case Outcome::kTokenUsed:
      return "token_used: the token was consumed by another request";
    case Outcome::kTokenExpired:
      return "token_expired: the token expired before it was used";
    case Outcome::kTimeout:
      return fmt::format(
          "timeout: no answer ({}); the transfer may or may not have happened: "
          "retry with the same --biz-seq",
          report.fault);
    case Outcome::kBusy:
      return fmt::format("busy: the database stayed locked ({}); nothing was changed: retry",
                         answer.reason);
    case Outcome::kError:
      return fmt::format("internal: {}", answer.reason);
  }
  return "";
}

nlohmann::ordered_json text_or_null(const std::string& text) {
  return text.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(text);
}

nlohmann::ordered_json answer_json(const AttemptReport& report, const TransferRequest& request,
                                   std::string_view strategy, bool pitfall) {
  return {{"biz_seq", request.biz_seq},
          {"strategy", strategy},
          {"pitfall", pitfall},
          {"outcome", outcome_name(report.answer.outcome)},
          {"replayed", report.answer.replayed},
          {"reason", text_or_null(report.answer.reason)},
          {"from", request.from},
          {"to", request.to},
          {"amount_minor", request.amount_minor},
          {"fault", text_or_null(report.fault)},
          {"server_outcome", outcome_name(report.server_answer.outcome)},
          {"served_by", text_or_null(report.served_by)}};
}

}  // namespace idemlab
