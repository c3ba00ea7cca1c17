// Outcome names, and which outcomes are definitive.
#include "ledger/answer.h"

#include <fmt/format.h>

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

std::string busy_reason_text(std::string_view why) {
  if (why == reason::kDiskFull) return "the ledger's disk is full (disk_full); nothing was written";
  if (why == reason::kOwnWriteUnseen)
    return "the flow row this attempt wrote or found is not where it read it back "
           "(own_write_unseen: a --read-db standby that has not replayed it); no money moved";
  if (why == reason::kCertificationFailed)
    return "the cluster certified another node's transaction on the same rows first, and "
           "rolled this one back as it committed (certification_failed, 1213); nothing was "
           "changed";
  if (why == reason::kDeadlock)
    return "the server found this transaction and another waiting on each other's locks, and "
           "rolled this one back (deadlock); nothing was changed";
  if (why == reason::kSerializationFailure)
    return "the server could not order this transaction after a concurrent one that changed "
           "the same rows, and rolled it back (serialization_failure); nothing was changed";
  if (why == reason::kReadOnly)
    return "a read-only server answered: a failover may be under way, or the URL names a "
           "standby; nothing was written by it (read_only)";
  if (why == reason::kNodeNotReady)
    return "a cluster node that is not serving now answered; nothing was written by it "
           "(node_not_ready)";
  return fmt::format("the database stayed locked ({}); nothing was changed", why);
}

}  // namespace idemlab
