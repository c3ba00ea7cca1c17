// Strategy: one way to make a transfer idempotent, written once as straight-line code against
// a Session and used by every mode. Adding a strategy is adding a file and a registry line.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/task.h"
#include "ledger/answer.h"
#include "ledger/request.h"
#include "strategies/session.h"

namespace idemlab {

struct StrategyInfo {
  std::string_view name;        // the subcommand, e.g. "select-insert"
  std::string_view title;       // one line
  std::string_view how;         // what it does, in a few sentences
  std::string_view protects;    // what it protects against
  std::string_view pitfall;     // what --pitfall removes and what then goes wrong
  std::string_view exposed_by;  // the fault that exposes the pitfall
  std::string_view notes;       // SQLite specifics worth knowing
  // Where `--fault slow` sleeps unless told otherwise (before this step runs): the window in
  // which a duplicate started in parallel overlaps this attempt.
  std::string_view critical_step;
  std::string_view critical_step_pitfall;
  // Every step name the code can reach, safe and pitfall; `crash:after=` takes these.
  std::vector<std::string_view> steps;
  // Steps only the guarded code reaches, and only the --pitfall code reaches (a fault aimed at
  // one of them would do nothing in the other mode, so it is refused there).
  std::vector<std::string_view> safe_only_steps = {};
  std::vector<std::string_view> pitfall_only_steps = {};
  // Traits, so that no caller compares strategy names:
  bool guarded = true;         // false for the unprotected baseline (it has no --pitfall row)
  bool needs_token = false;    // a client fetches a one-time token first (--token)
  bool uses_lock_ttl = false;  // takes --lock-ttl-ms and --owner
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual const StrategyInfo& info() const = 0;
  // One attempt. The accounts are known to exist and to differ (serve() checked).
  virtual Task<Answer> attempt(Session& session, const TransferRequest& request) const = 0;
};

// Whether an attempt of this strategy (with or without --pitfall) can run `step`.
bool reaches_step(const StrategyInfo& info, bool pitfall, std::string_view step);
// Those steps, in `steps` order.
std::vector<std::string_view> reachable_steps(const StrategyInfo& info, bool pitfall);

std::span<const Strategy* const> all_strategies();
const Strategy* find_strategy(std::string_view name);
std::vector<std::string> strategy_names();

}  // namespace idemlab
