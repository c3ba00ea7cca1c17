// Process exit codes: the one table that maps results to numbers, shown in --help and
// docs/one-attempt.md.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"
#include "ledger/answer.h"

namespace idemlab {

enum class ExitCode : int {
  kOk = 0,            // applied, or a replay of an applied transfer
  kInternal = 1,      // a bug or an unexpected SQLite error
  kUsage = 2,         // bad command line or bad input; nothing was changed
  kRejected = 3,      // definitive business rejection (insufficient_funds, unknown_account, ...)
  kMismatch = 4,      // same biz_seq, different payload, or served by another strategy
  kInProgress = 5,    // another attempt holds the key, lock or token: retry later
  kTokenRefused = 6,  // token_unknown, token_used, token_expired
  kAuditFailed = 7,   // audit found violations
  kLedger = 8,        // ledger file missing, damaged, not a ledger, too new, read-only, exists
  kNotFound = 9,      // query: the server has no record of the request
  kRetryable = 75,    // outcome unknown and safe to retry: timeout, database busy
  // Not returned: main() re-raises the signal, so the shell sees 128 + its number.
  kInterrupted = 130,  // SIGINT (130) or SIGTERM (143) stopped a run; its scratch state is gone
};

struct ExitCodeInfo {
  ExitCode code;
  std::string_view name;  // stable snake_case, the "code" of a JSON error
  std::string_view meaning;
};

// The exit code for an error the core returned, and for an attempt's answer.
ExitCode exit_code_for(const Status& status);
ExitCode exit_code_for(Outcome outcome);
const ExitCodeInfo& exit_code_info(ExitCode code);

// "0  applied or replayed\n..." for --help and docs/one-attempt.md.
std::string exit_code_help();

}  // namespace idemlab
