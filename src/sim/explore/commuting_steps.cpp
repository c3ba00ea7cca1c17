// Which two steps commute on a server (commuting_steps.h has the rule and why it holds).
#include "sim/explore/commuting_steps.h"

namespace idemlab {

namespace {

// kTimed: what the step does depends on the virtual time it runs at (a lock's or a token's
// expiry, Redis's keys, which expire on the virtual clock). Swapping two steps swaps their
// times, so a timed step commutes with nothing, not even a BEGIN.
enum class Kind { kBegin, kPlainRead, kTimed, kOther };

Kind kind_of(const StepFacts& step) {
  if (step.in_redis) return Kind::kTimed;
  switch (step.stmt) {
    case Stmt::kBeginDeferred:
    case Stmt::kBeginImmediate:
      return Kind::kBegin;
    // Reads that take no lock and compare no time (select_flow_for_update locks).
    case Stmt::kCheckAccounts:
    case Stmt::kSelectFlow:
    case Stmt::kSelectDedup:
    case Stmt::kServedBy:
      return Kind::kPlainRead;
    // The token strategy compares select_token's expiry with the clock; the others compare it
    // in their WHERE.
    case Stmt::kSelectToken:
    case Stmt::kConsumeToken:
    case Stmt::kAcquireLock:
    case Stmt::kCheckLockOwner:
      return Kind::kTimed;
    default:
      return Kind::kOther;
  }
}

// A write only its own open transaction can see yet: not a COMMIT or ROLLBACK (those let other
// statements see, or go), and not a statement run outside a transaction (that commits itself).
bool uncommitted_write(const StepFacts& step) {
  return step.in_transaction && step.stmt != Stmt::kCommit && step.stmt != Stmt::kRollback;
}

}  // namespace

bool steps_commute(const StepFacts& a, const StepFacts& b, bool serializable,
                   bool statement_in_flight) {
  if (a.opaque || b.opaque) return false;
  const Kind first = kind_of(a), second = kind_of(b);
  if (first == Kind::kTimed || second == Kind::kTimed) return false;
  if (first == Kind::kBegin || second == Kind::kBegin) return true;
  if (serializable) return false;
  if (first == Kind::kPlainRead && second == Kind::kPlainRead) return true;
  if (statement_in_flight) return false;
  if (first == Kind::kPlainRead) return second == Kind::kOther && uncommitted_write(b);
  if (second == Kind::kPlainRead) return first == Kind::kOther && uncommitted_write(a);
  return false;
}

}  // namespace idemlab
