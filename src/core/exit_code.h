// Process exit codes: the one table of them, shown in --help and the man page. A Status maps
// to its code here, an answer's outcome in ledger/answer.h, an HTTP problem in its own table's
// column (http/problem.h): each names a row of this table, and only main() exits with one.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "core/status.h"

namespace idemlab {

enum class ExitCode : int {
  kOk = 0,             // applied, or a replay of an applied transfer
  kInternal = 1,       // a bug, or an answer no engine or transport should give
  kUsage = 2,          // bad command line or bad input; nothing was changed
  kRejected = 3,       // definitive business rejection (insufficient_funds, unknown_account, ...)
  kMismatch = 4,       // same biz_seq, different payload, or served by another strategy
  kInProgress = 5,     // another attempt holds the key, lock or token: retry later
  kTokenRefused = 6,   // token_unknown, token_used, token_expired
  kAuditFailed = 7,    // audit found violations
  kLedger = 8,         // the ledger, a server, Redis or the broker cannot be used
  kNotFound = 9,       // query: the server has no record of the request
  kDeadLettered = 10,  // consume: messages set aside on the dead-letter queue
  kNotRun = 11,        // lesson: it needs a server or broker that is not there; nothing ran
  kRetryable = 75,     // outcome unknown and safe to retry: timeout, busy, no answer in time
  // Not returned: main() re-raises the signal, so the shell sees 128 + its number.
  kInterrupted = 130,  // SIGINT (130) or SIGTERM (143) stopped a run; its scratch state is gone
};

struct ExitCodeInfo {
  ExitCode code;
  std::string_view name;  // stable snake_case, the "code" of a JSON error
  std::string_view meaning;
};

// The exit code for an error the core returned.
ExitCode exit_code_for(const Status& status);
const ExitCodeInfo& exit_code_info(ExitCode code);
// Every row, in order.
std::span<const ExitCodeInfo> exit_code_table();

// A set of exit codes: the ones a command can give, as its --help lists them.
class ExitCodes {
 public:
  constexpr ExitCodes(std::initializer_list<ExitCode> codes) {
    for (ExitCode code : codes) bits_ |= bit(code);
  }
  constexpr bool has(ExitCode code) const { return (bits_ & bit(code)) != 0; }
  // Every code of the table.
  static constexpr ExitCodes all() {
    ExitCodes every{};
    every.bits_ = ~0u;
    return every;
  }

 private:
  static constexpr uint32_t bit(ExitCode code) {
    const int value = static_cast<int>(code);
    return 1u << (value <= 11 ? value : value == 75 ? 12 : 13);
  }
  uint32_t bits_ = 0;
};

// "Exit codes:\n  0   applied or replayed\n..." for --help: those in `codes`; `ok_means`, when
// given, says what 0 means for this command ("the run finished, whatever its rows show").
std::string exit_code_help(ExitCodes codes = ExitCodes::all(), std::string_view ok_means = {});

}  // namespace idemlab
