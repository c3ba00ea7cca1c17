// Where the server-side faults of one attempt land (crash, slow), decided in one place for both
// drivers. The one-attempt driver acts on a decision with a real SIGKILL or sleep; the
// simulator with a lost attempt or a pause in virtual time. A fault lands at a phase (the same
// point in every strategy, attempt/phase.h), at a step the strategy names, or, for a simulated
// crash that names neither, after the attempt's n-th statement.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "attempt/fault.h"
#include "attempt/phase.h"
#include "strategies/session.h"

namespace idemlab {

class FaultSites {
 public:
  // Where a slow fault with no at= pauses: at `default_slow_phase`, or with Phase::kNone at
  // `critical_step` (the strategy's race), which at=critical also names.
  FaultSites() = default;
  FaultSites(std::string_view critical_step, Phase default_slow_phase)
      : critical_step_(critical_step), default_slow_phase_(default_slow_phase) {}

  // Arms a crash, slow or failover fault that hit this attempt (one of each; a later one
  // replaces an earlier). `crash_after`: for a crash naming neither step nor phase, the statements
  // to run.
  void arm(const FaultSpec& fault, uint16_t crash_after = 0);

  // Before `next` runs: whether the attempt dies now (at a phase that opens with it).
  bool crash_before(const PendingStep& next) const;
  // Before `next` runs: how long to pause there (0: not here). Fires once.
  int64_t pause_before(const PendingStep& next);
  // Where pause_before pauses, for narration: a phase or a step name.
  std::string_view pause_site() const;
  // The gate a one-attempt pause waits at instead of sleeping ("": none; attempt/gate.h).
  std::string_view pause_gate() const { return slow_gate_ ? *slow_gate_ : std::string_view(); }

  // Before `next` runs: whether a failover happens now (at a phase that opens with it). Fires
  // once.
  bool failover_before(const PendingStep& next);
  // After a step ran: whether a failover happens now (after its step or phase, or, placed
  // nowhere, after the attempt's first write to the guard store, or with of=ledger|both after
  // the commit that moved the money). Fires once.
  bool failover_after(std::string_view step, bool wrote_guard);
  // Where the failover landed, for narration: a phase, a step, or "guard write".
  std::string_view failover_site() const { return failover_site_; }
  // How far the replica is behind (a synchronous one, as the topology says, loses nothing).
  int64_t failover_lag_ms() const { return failover_lag_ms_; }
  FailoverOf failover_of() const { return failover_of_; }

  // Records a step that ran; then crash_after() and pause_after_commit() say what follows it.
  void ran(Stmt stmt, const StepResult& result, bool in_transaction, bool finished);
  bool crash_after(std::string_view step) const;
  // Right after the commit that moved the money: how long to pause before answering (0: not
  // now). Fires once.
  int64_t pause_after_commit();

  const PhaseTracker& phases() const { return phases_; }
  Phase crash_phase() const { return crash_phase_; }

 private:
  std::string_view critical_step_;
  Phase default_slow_phase_ = Phase::kNone;
  PhaseTracker phases_;
  uint16_t statements_run_ = 0;
  bool finished_ = false;
  const std::string* crash_step_ = nullptr;  // armed when set ("": see crash_after_)
  Phase crash_phase_ = Phase::kNone;
  uint16_t crash_after_ = 0;
  const std::string* slow_step_ = nullptr;
  Phase slow_phase_ = Phase::kNone;
  int64_t slow_ms_ = 0;  // armed when > 0
  const std::string* slow_gate_ = nullptr;
  const std::string* failover_step_ = nullptr;  // armed when set ("": after the guard write)
  Phase failover_phase_ = Phase::kNone;
  int64_t failover_lag_ms_ = 0;
  FailoverOf failover_of_ = FailoverOf::kGuards;
  std::string_view failover_site_;
};

}  // namespace idemlab
