// The exit code table and its help text.
#include "core/exit_code.h"

#include <array>
#include <fmt/format.h>
#include <string>

namespace idemlab {

namespace {
constexpr std::array kTable{
    ExitCodeInfo{ExitCode::kOk, "applied, or replayed (a repeat answered with the first answer)"},
    ExitCodeInfo{ExitCode::kInternal, "internal error (a bug or an unexpected SQLite error)"},
    ExitCodeInfo{ExitCode::kUsage, "usage or input error; nothing was changed"},
    ExitCodeInfo{ExitCode::kRejected, "rejected (insufficient_funds, unknown_account, same_account)"},
    ExitCodeInfo{ExitCode::kMismatch, "mismatch: same biz_seq, different payload"},
    ExitCodeInfo{ExitCode::kInProgress, "in_progress: another attempt holds the key; retry later"},
    ExitCodeInfo{ExitCode::kTokenRefused, "token_unknown, token_used or token_expired"},
    ExitCodeInfo{ExitCode::kAuditFailed, "audit found violations"},
    ExitCodeInfo{ExitCode::kLedger,
                 "ledger file missing, not a ledger, newer schema, read-only, or already exists"},
    ExitCodeInfo{ExitCode::kRetryable, "unknown outcome, safe to retry (timeout, database busy)"},
};
}  // namespace

std::span<const ExitCodeInfo> exit_code_table() { return kTable; }

std::string exit_code_help() {
  std::string text = "Exit codes:\n";
  for (const auto& row : kTable)
    text += fmt::format("  {:<3} {}\n", static_cast<int>(row.code), row.meaning);
  return text;
}

}  // namespace idemlab
