// Outcome names, and which outcomes are definitive.
#include "ledger/answer.h"

#include <array>
#include <utility>

namespace idemlab {

namespace {
struct OutcomeRow {
  Outcome outcome;
  std::string_view name;
  bool definitive;
};
constexpr std::array kOutcomes{
    OutcomeRow{Outcome::kApplied, "applied", true},
    OutcomeRow{Outcome::kRejected, "rejected", true},
    OutcomeRow{Outcome::kMismatch, "mismatch", true},
    OutcomeRow{Outcome::kInProgress, "in_progress", false},
    OutcomeRow{Outcome::kTokenUnknown, "token_unknown", true},
    OutcomeRow{Outcome::kTokenUsed, "token_used", true},
    OutcomeRow{Outcome::kTokenExpired, "token_expired", true},
    OutcomeRow{Outcome::kTimeout, "timeout", false},
    OutcomeRow{Outcome::kBusy, "busy", false},
    OutcomeRow{Outcome::kError, "error", false},
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
