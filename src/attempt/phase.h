// Phases: the same points of the work in every strategy, so that a fault placed by phase hits
// each strategy like for like (slow:at=PHASE, crash:after=PHASE), whatever its steps are called.
//   before-guard   before the attempt's first write: nothing is written or locked yet;
//   holding-guard  just before the money moves (the debit): the guard is taken, i.e. the write
//                  transaction is open, or the lock or token is held;
//   after-commit   the money moved and is committed; the answer is not yet sent.
#pragma once

#include <optional>
#include <string_view>

#include "db/connection.h"

namespace idemlab {

enum class Phase : uint8_t { kNone, kBeforeGuard, kHoldingGuard, kAfterCommit };

std::optional<Phase> phase_from_name(std::string_view name);
std::string_view phase_name(Phase phase);

// Follows one attempt step by step. Both drivers (one attempt per process, and the simulator)
// feed it, so a phase means the same in both.
class PhaseTracker {
 public:
  // Whether the step about to run opens `phase` (before-guard, holding-guard).
  bool opens_before(Phase phase, Stmt stmt) const {
    if (phase == Phase::kBeforeGuard) return !wrote_ && statement_takes_write_lock(stmt);
    if (phase == Phase::kHoldingGuard) return !moved_ && stmt == Stmt::kDebit;
    return false;
  }
  // Records a step that ran.
  void ran(Stmt stmt, const StepResult& result, bool in_transaction) {
    wrote_ |= statement_takes_write_lock(stmt);
    moved_ |= stmt == Stmt::kDebit && result.ok();
    just_committed_ = moved_ && !committed_ && !in_transaction;
    committed_ |= just_committed_;
  }
  // Whether the step just recorded committed the money (after-commit begins now).
  bool just_committed() const { return just_committed_; }
  // Whether the money moved and is committed.
  bool committed() const { return committed_; }

 private:
  bool wrote_ = false;
  bool moved_ = false;
  bool committed_ = false;
  bool just_committed_ = false;
};

}  // namespace idemlab
