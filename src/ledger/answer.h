// Answers: what a transfer endpoint says to one attempt. Business outcomes are values with
// stable snake_case names shared by text, JSON, tests and exit codes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/exit_code.h"

namespace idemlab {

enum class Outcome {
  kApplied,       // the money moved (by this attempt, or `replayed`: by an earlier one)
  kRejected,      // definitive refusal; `reason` says why; replayed to later repeats
  kMismatch,      // same biz_seq, different payload
  kInProgress,    // a concurrent attempt holds the key, lock or token: retry later
  kTokenUnknown,  // no such token
  kTokenUsed,     // the token was consumed by another request
  kTokenExpired,  // the token expired before it was used
  kTimeout,       // the client heard nothing: outcome unknown, safe to retry
  kBusy,          // the database could not take the work now (locked past the wait limit, a
                  // serialization failure or deadlock, a full disk): nothing written, retry
  kError,         // an unexpected failure
};

// Reasons used with kRejected, kBusy and kTimeout.
namespace reason {
inline constexpr std::string_view kInsufficientFunds = "insufficient_funds";
inline constexpr std::string_view kUnknownAccount = "unknown_account";
inline constexpr std::string_view kSameAccount = "same_account";
inline constexpr std::string_view kDatabaseBusy = "database_busy";
inline constexpr std::string_view kBusySnapshot = "busy_snapshot";
// A server rolled the attempt back (kBusy): a serialization failure (40001, 1020) or a deadlock
// (40P01, 1213); nothing was written, safe to retry.
inline constexpr std::string_view kSerializationFailure = "serialization_failure";
inline constexpr std::string_view kDeadlock = "deadlock";
// A Galera node rolled the attempt back at its COMMIT (1213 there): another node's transaction
// that wrote the same rows was certified first. Nothing was written, safe to retry (kBusy).
inline constexpr std::string_view kCertificationFailed = "certification_failed";
// A row lock was not granted in time (kInProgress): a twin holds it (55P03, 1205).
inline constexpr std::string_view kLockWaitTimeout = "lock_wait_timeout";
// The connection broke mid-attempt (kTimeout): whether it committed is unknown.
inline constexpr std::string_view kConnectionLost = "connection_lost";
// A guard write (a token's DEL, a lock's SET) stands on the guard store's primary, but fewer
// replicas than asked (?wait=N) acknowledged it (kTimeout): a failover may forget it.
inline constexpr std::string_view kUnreplicated = "unreplicated";
// A read-only server refused a write (kBusy): a standby, or a primary a failover demoted; the
// statement wrote nothing, and a retry, on a connection resolved again, may reach the primary.
inline constexpr std::string_view kReadOnly = "read_only";
// A cluster node that is not serving now refused the statement (kBusy): nothing written by it.
inline constexpr std::string_view kNodeNotReady = "node_not_ready";
// The ledger's disk is full (kBusy): the write did not happen, nothing was committed.
inline constexpr std::string_view kDiskFull = "disk_full";
// The disk failed while the transfer committed (kTimeout): a failed sync leaves the commit
// record written or not, so whether it committed is unknown until a retry asks.
inline constexpr std::string_view kIoErrorAtCommit = "io_error_at_commit";
inline constexpr std::string_view kRequestLost = "request_lost";
inline constexpr std::string_view kResponseLost = "response_lost";
inline constexpr std::string_view kStrategySwitch = "strategy_switch";  // with kMismatch
inline constexpr std::string_view kMissingKey = "missing_key";  // the request carried no key
inline constexpr std::string_view kOverLimit = "over_limit";    // above the payer's account limit
// With kTokenUnknown, where a guard store keeps tokens (Redis): the token was never issued, or the
// store forgot it (it expired, or the store restarted without persistence).
inline constexpr std::string_view kStoreLostOrNeverIssued = "store_lost_or_never_issued";
// With kBusy: the flow row the attempt has just written or found is not where it read it back
// (a standby that has not replayed it, --read-db): no money moved; a retry finds the row.
inline constexpr std::string_view kOwnWriteUnseen = "own_write_unseen";
// With kInProgress (lock-table --fence): the ledger has recorded a newer lock grant's fence than
// this attempt's: its lock was lost (it expired while the holder was stopped, or the lock
// store failed over), and it wrote nothing.
inline constexpr std::string_view kFenced = "fenced";
}  // namespace reason

struct Answer {
  Outcome outcome = Outcome::kError;
  std::string reason;
  bool replayed = false;

  static Answer of(Outcome outcome, std::string_view why = {}) {
    return Answer{outcome, std::string(why), false};
  }
  bool operator==(const Answer&) const = default;
};

std::string_view outcome_name(Outcome outcome);
std::optional<Outcome> outcome_from_name(std::string_view name);

// The exit code a one-attempt command ends with for this outcome (core/exit_code.h's table).
ExitCode exit_code_for(Outcome outcome);
// Definitive answers end a client's retries; the others (in_progress, timeout, busy, error)
// leave the outcome open.
bool is_definitive(Outcome outcome);
// Whether the money moved for the request, as the answer claims.
bool claims_success(Outcome outcome);
// Two definitive answers to one request agree when they say the same thing: applied and a
// replay of it agree; two rejections agree when their reasons do.
bool answers_agree(const Answer& first, const Answer& second);

// What a busy answer's reason means, in words ("the server found this transaction and another
// waiting on each other's locks, ... (deadlock); nothing was changed"): the CLI's line and
// serve's 503 say the same.
std::string busy_reason_text(std::string_view reason);

}  // namespace idemlab
