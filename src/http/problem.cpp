// The problem types serve answers, in one table.
#include "http/problem.h"

#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>

namespace idemlab {

namespace {

constexpr std::array<ProblemInfo, 22> kProblems{{
    {Problem::kMissingIdempotencyKey, "missing-idempotency-key", 400, ExitCode::kUsage,
     "Idempotency-Key is required",
     "This server was started with --require-key: a POST /transfers must carry an "
     "Idempotency-Key header, so that a retry of it is recognised. Nothing was done."},
    {Problem::kInvalidIdempotencyKey, "invalid-idempotency-key", 400, ExitCode::kUsage,
     "Idempotency-Key is not a valid key",
     "The header must be a string (\"...\", as draft-ietf-httpapi-idempotency-key-header "
     "writes it) or a bare token, of 1 to 64 printable characters without spaces. Nothing was "
     "done."},
    {Problem::kIdempotencyKeyReused, "idempotency-key-reused", 422, ExitCode::kMismatch,
     "Idempotency-Key was used with another request",
     "The key names a transfer made with another payload (from, to or amount). A key names one "
     "request: use a new key for a new transfer. Nothing was done."},
    {Problem::kRequestInProgress, "request-in-progress", 409, ExitCode::kInProgress,
     "The first request with this key is still in progress",
     "Another attempt of the same transfer holds it now. Retry with the same key after "
     "Retry-After seconds; the answer will be the first request's."},
    {Problem::kUnsupportedMediaType, "unsupported-media-type", 415, ExitCode::kUsage,
     "The body is neither JSON nor a form",
     "Send Content-Type: application/json or application/x-www-form-urlencoded."},
    {Problem::kMalformedBody, "malformed-body", 400, ExitCode::kUsage, "The body cannot be read",
     "The body is not valid JSON (an object), or not a valid form. Nothing was done."},
    {Problem::kInvalidField, "invalid-field", 400, ExitCode::kUsage,
     "A field is missing, unknown or invalid",
     "A transfer takes exactly from, to and amount (and token, for the token strategy). The "
     "amount is a positive decimal with at most two fractional digits, within the ledger's "
     "limit. Nothing was done."},
    {Problem::kPayloadTooLarge, "payload-too-large", 413, ExitCode::kUsage, "The body is too large",
     "The body is longer than --max-body-bytes. Nothing was done."},
    {Problem::kNotFound, "not-found", 404, ExitCode::kNotFound, "No such resource",
     "Nothing is at this path."},
    {Problem::kMethodNotAllowed, "method-not-allowed", 405, ExitCode::kUsage,
     "The method is not allowed here", "The Allow header lists the methods this path takes."},
    {Problem::kInsufficientFunds, "insufficient-funds", 422, ExitCode::kRejected,
     "Insufficient funds",
     "The payer holds less than the amount. This answer is definitive: a retry with the same "
     "key gets it again."},
    {Problem::kUnknownAccount, "unknown-account", 422, ExitCode::kRejected, "No such account",
     "from or to names no account of the ledger. Nothing was done."},
    {Problem::kSameAccount, "same-account", 422, ExitCode::kRejected,
     "from and to are the same account",
     "A transfer moves money between two accounts. Nothing was done."},
    {Problem::kOverLimit, "over-limit", 422, ExitCode::kRejected,
     "The amount is above the payer's limit",
     "The payer's per-transfer limit refuses it. Nothing was done."},
    {Problem::kTokenRequired, "token-required", 400, ExitCode::kUsage,
     "The token strategy needs a token",
     "Fetch one with POST /tokens, then send it as the transfer's token field with every try."},
    {Problem::kTokenUnknown, "token-unknown", 422, ExitCode::kTokenRefused, "No such token",
     "The token was never issued, or its store forgot it (it expired, or Redis restarted "
     "without persistence). Ask GET /transfers/KEY before fetching a new token."},
    {Problem::kTokenUsed, "token-used", 422, ExitCode::kTokenRefused,
     "The token was used by another request",
     "A token serves one transfer: fetch a new one for a new transfer."},
    {Problem::kTokenExpired, "token-expired", 422, ExitCode::kTokenRefused, "The token expired",
     "It expired before it was used: fetch a new one."},
    {Problem::kServerBusy, "server-busy", 503, ExitCode::kRetryable,
     "The ledger cannot take the work now",
     "It is locked, a server is full or restarting, or its disk is full. Nothing was done: "
     "retry with the same key after Retry-After seconds."},
    {Problem::kOutcomeUnknown, "outcome-unknown", 503, ExitCode::kRetryable,
     "Whether the transfer happened is unknown",
     "The connection to the ledger or its guard store was lost mid-attempt. Retry with the "
     "same key: the answer will say what happened."},
    {Problem::kLedgerUnavailable, "ledger-unavailable", 500, ExitCode::kLedger,
     "The ledger cannot be used",
     "It is missing, damaged, read-only or not an idemlab ledger; see the detail."},
    {Problem::kInternal, "internal", 500, ExitCode::kInternal, "Internal error",
     "A bug: see the detail."},
}};

constexpr bool table_is_in_order() {
  for (size_t i = 0; i < kProblems.size(); ++i)
    if (static_cast<size_t>(kProblems[i].problem) != i) return false;
  return true;
}
static_assert(table_is_in_order(), "kProblems must list every Problem in enum order");

}  // namespace

std::span<const ProblemInfo> problem_table() {
  return kProblems;
}

const ProblemInfo& problem_info(Problem problem) {
  return kProblems[static_cast<size_t>(problem)];
}

const ProblemInfo* find_problem(std::string_view name) {
  for (const ProblemInfo& info : kProblems)
    if (info.name == name) return &info;
  return nullptr;
}

HttpReply problem_reply(Problem problem, std::string_view detail,
                        std::vector<std::pair<std::string, std::string>> headers) {
  const ProblemInfo& info = problem_info(problem);
  nlohmann::ordered_json body{{"type", fmt::format("/problems/{}", info.name)},
                              {"title", info.title},
                              {"status", info.status},
                              {"detail", detail}};
  HttpReply reply;
  reply.status = info.status;
  reply.headers = std::move(headers);
  reply.headers.emplace_back("Content-Type", "application/problem+json");
  reply.body = json_body(body);
  return reply;
}

HttpReply status_reply(const Status& status) {
  switch (status.code()) {
    case StatusCode::kBusy:
    case StatusCode::kUnavailable:
      return problem_reply(Problem::kServerBusy, status.message(), {{"Retry-After", "1"}});
    case StatusCode::kLedger:
      return problem_reply(Problem::kLedgerUnavailable, status.message());
    case StatusCode::kUsage:
      return problem_reply(
          status.reason() == "token_required" ? Problem::kTokenRequired : Problem::kInvalidField,
          status.message());
    default:
      return problem_reply(Problem::kInternal, status.message());
  }
}

HttpReply problem_page(std::string_view name) {
  HttpReply reply;
  reply.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
  if (name.empty()) {
    for (const ProblemInfo& info : kProblems)
      reply.body += fmt::format("/problems/{}  {} {}\n", info.name, info.status, info.title);
    return reply;
  }
  const ProblemInfo* info = find_problem(name);
  if (!info) return problem_reply(Problem::kNotFound, fmt::format("no problem type {}", name));
  reply.body = fmt::format("{} {}: {}\n\n{}\n", info->status, info->name, info->title, info->means);
  return reply;
}

}  // namespace idemlab
