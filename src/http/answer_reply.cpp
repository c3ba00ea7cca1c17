// From an attempt's answer, or an error, to what the client is told: a status, headers and a
// body (the transfer as JSON, or a problem).
#include <fmt/format.h>

#include "http/json_text.h"
#include "http/problem.h"
#include "http/secret.h"
#include "http/transfer_server.h"
#include "ledger/money.h"

namespace idemlab {

namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

// Seconds a client waits before it retries: what is left of a lock's lease, at least 1.
std::string retry_after(const AttemptReport& report) {
  const int64_t ms = report.holder.by.empty() ? 1000 : report.holder.retry_after_ms;
  return std::to_string(std::max<int64_t>(1, (ms + 999) / 1000));
}

Problem rejection_problem(const std::string& why) {
  if (why == reason::kInsufficientFunds) return Problem::kInsufficientFunds;
  if (why == reason::kUnknownAccount) return Problem::kUnknownAccount;
  if (why == reason::kSameAccount) return Problem::kSameAccount;
  if (why == reason::kOverLimit) return Problem::kOverLimit;
  return Problem::kInvalidField;  // missing_key: the key the guard needs was left out
}

// On PostgreSQL the body and a header give where the WAL stood after the commit: a client that
// reads from a standby reads its own write once the standby has replayed that far.
HttpReply created(const TransferRequest& request, const AttemptReport& report, Headers headers) {
  JsonObjectText body;
  body.string("id", request.biz_seq)
      .string("from", request.from)
      .string("to", request.to)
      .string("amount", format_amount(request.amount_minor))
      .string("outcome", "applied");
  if (const std::string& position = report.where.commit_position; !position.empty()) {
    body.string("commit_lsn", position);
    headers.emplace_back("Idemlab-Commit-Lsn", position);
  }
  HttpReply reply;
  reply.status = 201;
  reply.headers = std::move(headers);
  reply.headers.emplace_back("Location", "/transfers/" + request.biz_seq);
  reply.headers.emplace_back("Content-Type", "application/json");
  reply.body = std::move(body).body();
  return reply;
}

HttpReply refusal(const TransferRequest& request, const AttemptReport& report, Headers headers) {
  const Answer& answer = report.answer;
  switch (answer.outcome) {
    case Outcome::kRejected:
      return problem_reply(rejection_problem(answer.reason),
                           fmt::format("transfer {}: {}", request.biz_seq, answer.reason),
                           std::move(headers));
    case Outcome::kMismatch:
      return problem_reply(
          Problem::kIdempotencyKeyReused,
          answer.reason == reason::kStrategySwitch
              ? fmt::format("{} was first served by {}", request.biz_seq, report.served_by)
              : fmt::format("{} was first sent with another payload", request.biz_seq),
          std::move(headers));
    case Outcome::kTokenUnknown:
      return problem_reply(Problem::kTokenUnknown, answer.reason, std::move(headers));
    case Outcome::kTokenUsed:
      return problem_reply(Problem::kTokenUsed, "", std::move(headers));
    case Outcome::kTokenExpired:
      return problem_reply(Problem::kTokenExpired, "", std::move(headers));
    default:
      return problem_reply(Problem::kInternal, answer.reason, std::move(headers));
  }
}

}  // namespace

std::string new_transfer_id() {
  return "auto-" + secret_hex(16);
}

HttpReply answer_reply(const TransferRequest& request, const AttemptReport& report) {
  const Answer& answer = report.answer;
  Headers headers;
  if (answer.replayed) headers.emplace_back("Idempotent-Replayed", "true");
  // On a Galera cluster, every answer names the node that served it, in a header only: a
  // replay's body stays the first answer's, whichever node serves the replay.
  if (!report.where.node.empty()) headers.emplace_back("Idemlab-Node", report.where.node);
  // Guards behind Sentinels: the primary that kept this attempt's guards.
  if (!report.where.guard_node.empty())
    headers.emplace_back("Idemlab-Guard-Node", report.where.guard_node);
  switch (answer.outcome) {
    case Outcome::kApplied:
      return created(request, report, std::move(headers));
    case Outcome::kInProgress:
      headers.emplace_back("Retry-After", retry_after(report));
      return problem_reply(Problem::kRequestInProgress,
                           report.holder.by.empty()
                               ? fmt::format("{} is held by another attempt", request.biz_seq)
                               : fmt::format("{} is held by {}", request.biz_seq, report.holder.by),
                           std::move(headers));
    case Outcome::kBusy:
      headers.emplace_back("Retry-After", "1");
      return problem_reply(Problem::kServerBusy, busy_reason_text(answer.reason),
                           std::move(headers));
    case Outcome::kTimeout:
      headers.emplace_back("Retry-After", "1");
      return problem_reply(Problem::kOutcomeUnknown,
                           !report.unreplicated.empty()      ? report.unreplicated
                           : !report.lost_connection.empty() ? report.lost_connection
                                                             : answer.reason,
                           std::move(headers));
    default:
      return refusal(request, report, std::move(headers));
  }
}

}  // namespace idemlab
