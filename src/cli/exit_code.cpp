// The exit code table and its help text, and the one place where the core's results (a
// Status, an answer's outcome) become exit codes.
#include "cli/exit_code.h"

#include <fmt/format.h>

#include <array>
#include <string>

namespace idemlab {

namespace {
constexpr std::array kTable{
    ExitCodeInfo{ExitCode::kOk, "ok",
                 "applied, or replayed (a repeat answered with the first answer)"},
    ExitCodeInfo{ExitCode::kInternal, "internal",
                 "internal error (a bug or an unexpected SQLite error)"},
    ExitCodeInfo{ExitCode::kUsage, "usage", "usage or input error; nothing was changed"},
    ExitCodeInfo{ExitCode::kRejected, "rejected",
                 "rejected (insufficient_funds, unknown_account, same_account)"},
    ExitCodeInfo{ExitCode::kMismatch, "mismatch",
                 "mismatch: same biz_seq with a different payload, or first served by "
                 "another strategy"},
    ExitCodeInfo{ExitCode::kInProgress, "in_progress",
                 "in_progress: another attempt holds the key; retry later"},
    ExitCodeInfo{ExitCode::kTokenRefused, "token_refused",
                 "token_unknown, token_used or token_expired"},
    ExitCodeInfo{ExitCode::kAuditFailed, "audit_failed",
                 "audit found violations (a damaged file included)"},
    ExitCodeInfo{ExitCode::kLedger, "ledger",
                 "ledger file missing, damaged, not a ledger, newer schema, read-only, or "
                 "already exists"},
    ExitCodeInfo{ExitCode::kNotFound, "not_found",
                 "query: the server has no record of the request (lost, or not written yet)"},
    ExitCodeInfo{ExitCode::kRetryable, "retryable",
                 "unknown outcome, safe to retry (timeout, database busy, a lost connection, a "
                 "full server or disk)"},
    ExitCodeInfo{ExitCode::kInterrupted, "interrupted",
                 "130/143: stopped by SIGINT/SIGTERM; a simulation leaves no scratch file"},
};
}  // namespace

const ExitCodeInfo& exit_code_info(ExitCode code) {
  for (const auto& row : kTable)
    if (row.code == code) return row;
  return kTable[1];  // internal
}

ExitCode exit_code_for(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return ExitCode::kOk;
    case StatusCode::kUsage:
      return ExitCode::kUsage;
    case StatusCode::kLedger:
      return ExitCode::kLedger;
    case StatusCode::kBusy:
    case StatusCode::kUnavailable:
      return ExitCode::kRetryable;
    case StatusCode::kInterrupted:
      return ExitCode::kInterrupted;
    case StatusCode::kInternal:
      break;
  }
  return ExitCode::kInternal;
}

ExitCode exit_code_for(Outcome outcome) {
  switch (outcome) {
    case Outcome::kApplied:
      return ExitCode::kOk;
    case Outcome::kRejected:
      return ExitCode::kRejected;
    case Outcome::kMismatch:
      return ExitCode::kMismatch;
    case Outcome::kInProgress:
      return ExitCode::kInProgress;
    case Outcome::kTokenUnknown:
    case Outcome::kTokenUsed:
    case Outcome::kTokenExpired:
      return ExitCode::kTokenRefused;
    case Outcome::kTimeout:
    case Outcome::kBusy:
      return ExitCode::kRetryable;
    case Outcome::kError:
      break;
  }
  return ExitCode::kInternal;
}

std::string exit_code_help() {
  std::string text = "Exit codes:\n";
  for (const auto& row : kTable)
    if (row.code != ExitCode::kInterrupted)
      text += fmt::format("  {:<3} {}\n", static_cast<int>(row.code), row.meaning);
  text += fmt::format("  {}\n", exit_code_info(ExitCode::kInterrupted).meaning);
  return text;
}

}  // namespace idemlab
