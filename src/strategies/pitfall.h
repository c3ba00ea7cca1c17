// Pitfalls: the mistakes the references warn about, each a guard removed from a strategy's code.
// A strategy lists the ones it has; the first is the one a bare --pitfall asks for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idemlab {

enum class Pitfall : uint8_t {
  kNone,                  // the guarded code
  kNoUniqueIndex,         // select-insert: the insert has no unique index behind it
  kUpsertCarriesOn,       // direct-insert: the upsert swallows the conflict, the work goes on
  kNoPrecondition,        // state-machine: the claim drops "AND status = 1"
  kSeparateTransactions,  // dedup-table: the dedup row commits before the business work
  kKeyWithoutSource,      // dedup-table: the dedup key is the serial number alone
  kCheckThenDelete,       // token: check the token, then consume it in another step
  kCheckOutsideLock,      // select-for-update: check the status before taking the lock
  kAba,                   // optimistic-lock: the version goes back down
  kNoOwnerCheck,          // lock-table: work and release without checking the owner
  kTtlTooShort,           // lock-table: the lock is the only guard and expires mid-work
  kTtlTooLong,            // lock-table: a crashed holder's lock outlives every retry
  kSuccessOnDuplicate,    // any repeat-detecting strategy: a repeat answers "applied"
  kMissingKey,            // strategies on a unique index: a request without a key passes
};

std::string_view pitfall_name(Pitfall pitfall);
std::optional<Pitfall> pitfall_from_name(std::string_view name);
// " --pitfall=NAME", or "" for the guarded code: what a reproduce line adds.
std::string pitfall_argument(Pitfall pitfall);

// One pitfall of one strategy, as `explain` shows it.
struct PitfallInfo {
  Pitfall id = Pitfall::kNone;
  std::string_view reference;   // article and section, e.g. "000 §5.1; 004 §5.1"
  std::string_view removes;     // the guard the pitfall's code leaves out
  std::string_view goes_wrong;  // what then happens
  std::string_view exposed_by;  // the fault that shows it
  // The command that shows it failing, after "idemlab": its subcommand and arguments beyond
  // --strategy and --pitfall, e.g. "simulate --scenario double-click" (see pitfall_command).
  std::string_view shown_by;
  std::string_view verdict;  // the verdict that counts the failure (simulate/explore JSON key)
  // Where `slow` pauses when it names no step ("": the strategy's critical step).
  std::string_view critical_step = "";
  // Steps of the guarded code this pitfall's code never runs, and steps only it runs.
  std::vector<std::string_view> skips = {};
  std::vector<std::string_view> adds = {};
};

// The two pitfalls several strategies share.
PitfallInfo success_on_duplicate_pitfall(std::vector<std::string_view> skips);
PitfallInfo missing_key_pitfall();

}  // namespace idemlab
