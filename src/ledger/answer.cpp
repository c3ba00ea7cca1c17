// Outcome names and their exit codes.
#include "ledger/answer.h"

#include <array>
#include <utility>

namespace idemlab {

namespace {
struct OutcomeRow {
  Outcome outcome;
  std::string_view name;
  ExitCode exit_code;
  bool definitive;
};
constexpr std::array kOutcomes{
    OutcomeRow{Outcome::kApplied, "applied", ExitCode::kOk, true},
    OutcomeRow{Outcome::kRejected, "rejected", ExitCode::kRejected, true},
    OutcomeRow{Outcome::kMismatch, "mismatch", ExitCode::kMismatch, true},
    OutcomeRow{Outcome::kInProgress, "in_progress", ExitCode::kInProgress, false},
    OutcomeRow{Outcome::kTokenUnknown, "token_unknown", ExitCode::kTokenRefused, true},
    OutcomeRow{Outcome::kTokenUsed, "token_used", ExitCode::kTokenRefused, true},
    OutcomeRow{Outcome::kTokenExpired, "token_expired", ExitCode::kTokenRefused, true},
    OutcomeRow{Outcome::kTimeout, "timeout", ExitCode::kRetryable, false},
    OutcomeRow{Outcome::kBusy, "busy", ExitCode::kRetryable, false},
    OutcomeRow{Outcome::kError, "error", ExitCode::kInternal, false},
};
const OutcomeRow& row_of(Outcome outcome) {
  return kOutcomes[static_cast<size_t>(outcome)];
}
}  // namespace

std::string_view outcome_name(Outcome outcome) {
  return row_of(outcome).name;
}

std::optional<Outcome> outcome_from_name(std::string_view name) {
  for (const auto& row : kOutcomes)
    if (row.name == name) return row.outcome;
  return std::nullopt;
}

ExitCode exit_code_for(Outcome outcome) {
  return row_of(outcome).exit_code;
}
bool is_definitive(Outcome outcome) {
  return row_of(outcome).definitive;
}
bool claims_success(Outcome outcome) {
  return outcome == Outcome::kApplied;
}

bool answers_agree(const Answer& first, const Answer& second) {
  if (claims_success(first.outcome) || claims_success(second.outcome))
    return claims_success(first.outcome) && claims_success(second.outcome);
  return first.outcome == second.outcome && first.reason == second.reason;
}

}  // namespace idemlab
