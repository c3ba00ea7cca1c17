// The one place a crash or a slow fault is placed against an attempt's steps.
#include "attempt/fault_site.h"

namespace idemlab {

void FaultSites::arm(const FaultSpec& fault, uint16_t crash_after) {
  if (fault.kind == FaultKind::kCrash) {
    crash_step_ = &fault.step;
    crash_phase_ = fault.phase;
    crash_after_ = crash_after;
  } else if (fault.kind == FaultKind::kSlow || fault.kind == FaultKind::kPause) {
    slow_ms_ = fault.ms;
    slow_step_ = &fault.step;
    slow_phase_ = fault.at_given ? fault.phase : default_slow_phase_;
    slow_gate_ = &fault.gate;
  } else if (fault.kind == FaultKind::kFailover) {
    failover_step_ = &fault.step;
    failover_lag_ms_ = fault.lag_ms;
    failover_of_ = fault.of;
    const bool at_commit =
        fault.phase == Phase::kAfterCommit ||
        (fault.phase == Phase::kNone && fault.step.empty() && fails_over_ledger(fault.of));
    failover_phase_ = at_commit ? Phase::kAfterCommit : fault.phase;
    failover_site_ = at_commit ? std::string_view("the commit that moved the money")
                     : fault.phase != Phase::kNone ? phase_name(fault.phase)
                     : fault.step.empty()          ? std::string_view("the guard write")
                                                   : std::string_view(fault.step);
  }
}

bool FaultSites::failover_before(const PendingStep& next) {
  if (!failover_step_ || !phases_.opens_before(failover_phase_, next.stmt)) return false;
  failover_step_ = nullptr;
  return true;
}

bool FaultSites::failover_after(std::string_view step, bool wrote_guard) {
  if (!failover_step_) return false;
  bool here = false;
  if (failover_phase_ == Phase::kAfterCommit)
    here = phases_.just_committed();
  else if (failover_phase_ == Phase::kNone)
    here = failover_step_->empty() ? wrote_guard : *failover_step_ == step;
  if (here) failover_step_ = nullptr;
  return here;
}

bool FaultSites::crash_before(const PendingStep& next) const {
  return crash_step_ && phases_.opens_before(crash_phase_, next.stmt);
}

std::string_view FaultSites::pause_site() const {
  if (slow_phase_ != Phase::kNone) return phase_name(slow_phase_);
  return slow_step_ && !slow_step_->empty() ? std::string_view(*slow_step_) : critical_step_;
}

int64_t FaultSites::pause_before(const PendingStep& next) {
  if (slow_ms_ <= 0 || slow_phase_ == Phase::kAfterCommit) return 0;
  const bool here = slow_phase_ != Phase::kNone ? phases_.opens_before(slow_phase_, next.stmt)
                                                : next.step == pause_site();
  return here ? std::exchange(slow_ms_, 0) : 0;
}

void FaultSites::ran(Stmt stmt, const StepResult& result, bool in_transaction, bool finished) {
  phases_.ran(stmt, result, in_transaction);
  ++statements_run_;
  finished_ = finished;
}

bool FaultSites::crash_after(std::string_view step) const {
  if (!crash_step_) return false;
  if (crash_phase_ == Phase::kAfterCommit) return phases_.just_committed();
  if (crash_phase_ != Phase::kNone) return false;
  if (!crash_step_->empty()) return *crash_step_ == step;
  return statements_run_ >= crash_after_ || finished_;
}

int64_t FaultSites::pause_after_commit() {
  if (slow_phase_ != Phase::kAfterCommit || slow_ms_ <= 0 || !phases_.just_committed()) return 0;
  return std::exchange(slow_ms_, 0);
}

}  // namespace idemlab
