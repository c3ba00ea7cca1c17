// Strategy: one way to make a transfer idempotent, written once as straight-line code against
// a Session and used by every mode. Adding a strategy is adding a file and a registry line.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/task.h"
#include "ledger/answer.h"
#include "ledger/request.h"
#include "strategies/pitfall.h"
#include "strategies/session.h"

namespace idemlab {

struct StrategyInfo {
  std::string_view name;      // the subcommand, e.g. "select-insert"
  std::string_view title;     // one line
  std::string_view how;       // what it does, in a few sentences
  std::string_view protects;  // what it protects against
  std::string_view notes;     // what else to know: an engine's ways, a pitfall of its store
  // Where `--fault slow` sleeps unless told otherwise (before this step runs): the window in
  // which a duplicate started in parallel overlaps this attempt.
  std::string_view critical_step;
  // Every step the guarded code can reach; `crash:after=` and `slow:at=` take these. A
  // pitfall's code skips some and adds others (PitfallInfo::skips, ::adds).
  std::vector<std::string_view> steps;
  // The pitfalls this strategy can be run with, the main one (a bare --pitfall) first.
  std::vector<PitfallInfo> pitfalls = {};
  // Traits, so that no caller compares strategy names:
  bool guarded = true;         // false for the unprotected baseline (it has no --pitfall row)
  bool needs_token = false;    // a client fetches a one-time token first (--token)
  bool uses_lock_ttl = false;  // takes --lock-ttl-ms and --owner
  // Takes --unique-index: its flow row goes under the unique index on (source, biz_seq), a
  // second guard behind the strategy's own.
  bool offers_unique_index = false;

  // Whether it keeps tokens or locks: what a guard store (--redis, guards=replica) would hold.
  bool keeps_guards() const { return needs_token || uses_lock_ttl; }
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual const StrategyInfo& info() const = 0;
  // One attempt. The accounts are known to exist and to differ (checked_transfer() checked).
  virtual Task<Answer> attempt(Session& session, const TransferRequest& request) const = 0;
};

// The strategy's entry for `pitfall`, or null (kNone, or a pitfall it does not have).
const PitfallInfo* find_pitfall(const StrategyInfo& info, Pitfall pitfall);
// The main pitfall (what a bare --pitfall means); kNone for the unguarded baseline.
Pitfall main_pitfall(const StrategyInfo& info);
// Whether an attempt of this strategy (guarded, or with `pitfall`) can run `step`.
bool reaches_step(const StrategyInfo& info, Pitfall pitfall, std::string_view step);
// Those steps: the guarded steps in order, then the pitfall's own.
std::vector<std::string_view> reachable_steps(const StrategyInfo& info, Pitfall pitfall);
// The command that shows a pitfall failing, e.g. "idemlab simulate --strategy select-insert
// --pitfall=no-unique-index --scenario double-click".
std::string pitfall_command(const StrategyInfo& info, const PitfallInfo& pitfall);
// The step `slow` pauses before when it names none.
std::string_view slow_default_step(const StrategyInfo& info, Pitfall pitfall);
// Resolves --pitfall's value for a strategy: "" is its main pitfall. Fails, naming the
// strategy's pitfalls, when it has no such one.
Status resolve_pitfall(const StrategyInfo& info, std::string_view name, Pitfall* out);

std::span<const Strategy* const> all_strategies();
const Strategy* find_strategy(std::string_view name);
std::vector<std::string> strategy_names();

}  // namespace idemlab
