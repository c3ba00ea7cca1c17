// The exit code table and its help text, and where a Status becomes an exit code.
#include "core/exit_code.h"

#include <fmt/format.h>

#include <array>
#include <string>

namespace idemlab {

namespace {
constexpr std::array kTable{
    ExitCodeInfo{ExitCode::kOk, "ok",
                 "applied, or replayed (a repeat answered with the first answer); or the "
                 "command did what it was asked"},
    ExitCodeInfo{ExitCode::kInternal, "internal",
                 "internal error: a bug, or an answer no engine or transport should give"},
    ExitCodeInfo{ExitCode::kUsage, "usage", "usage or input error; nothing was changed"},
    ExitCodeInfo{ExitCode::kRejected, "rejected",
                 "rejected (insufficient_funds, unknown_account, same_account, over_limit)"},
    ExitCodeInfo{ExitCode::kMismatch, "mismatch",
                 "mismatch: same biz_seq with a different payload, or first served by "
                 "another strategy"},
    ExitCodeInfo{ExitCode::kInProgress, "in_progress",
                 "in_progress: another attempt holds the key; retry later"},
    ExitCodeInfo{ExitCode::kTokenRefused, "token_refused",
                 "token_unknown, token_used or token_expired"},
    ExitCodeInfo{ExitCode::kAuditFailed, "audit_failed",
                 "audit found violations (a damaged file included); with --fail-on "
                 "violation: a guarded strategy broke its promise"},
    ExitCodeInfo{ExitCode::kLedger, "ledger",
                 "the ledger cannot be used: a SQLite file missing, damaged, not a ledger, "
                 "newer, read-only or already there; a database server, Redis or broker that "
                 "refused the connection or the login, or has no such database or queue"},
    ExitCodeInfo{ExitCode::kNotFound, "not_found",
                 "not found: query has no record of the request (lost, or not written yet); "
                 "http: no such resource"},
    ExitCodeInfo{ExitCode::kDeadLettered, "dead_lettered",
                 "consume: messages were set aside on QUEUE.dead (refused, or not settled "
                 "after --max-deliveries); the rest were settled"},
    ExitCodeInfo{ExitCode::kNotRun, "not_run",
                 "lesson: it needs a server or broker that is not there (it says which, and how "
                 "to start it); nothing ran"},
    ExitCodeInfo{ExitCode::kRetryable, "retryable",
                 "unknown outcome, safe to retry: a timeout, a lost connection, a server that "
                 "is busy, full or gave no answer in time, a full disk; consume: messages were "
                 "left in the queue"},
    ExitCodeInfo{ExitCode::kInterrupted, "interrupted",
                 "130/143: stopped by SIGINT/SIGTERM; a simulation leaves no scratch file"},
};
}  // namespace

std::span<const ExitCodeInfo> exit_code_table() {
  return kTable;
}

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

std::string exit_code_help(ExitCodes codes, std::string_view ok_means) {
  std::string text = "Exit codes:\n";
  for (const auto& row : kTable)
    if (row.code != ExitCode::kInterrupted && codes.has(row.code))
      text += fmt::format("  {:<3} {}\n", static_cast<int>(row.code),
                          row.code == ExitCode::kOk && !ok_means.empty() ? ok_means : row.meaning);
  if (codes.has(ExitCode::kInterrupted))
    text += fmt::format("  {}\n", exit_code_info(ExitCode::kInterrupted).meaning);
  return text;
}

}  // namespace idemlab
