// Which steps explore on a server tries in one order only (sim/commuting_steps.h).
#include <doctest/doctest.h>

#include "sim/explore/commuting_steps.h"

namespace idemlab {

namespace {

StepFacts in_transaction(Stmt stmt) {
  return {stmt, true, false, false};
}
StepFacts outside(Stmt stmt) {
  return {stmt, false, false, false};
}
constexpr bool kReadCommitted = false, kSerializable = true;

}  // namespace

TEST_CASE("a BEGIN commutes with any step but a timed one, at every level") {
  const StepFacts begin = outside(Stmt::kBeginImmediate);
  for (const bool serializable : {kReadCommitted, kSerializable}) {
    CHECK(steps_commute(begin, in_transaction(Stmt::kCommit), serializable, true));
    CHECK(steps_commute(outside(Stmt::kInsertFlow), begin, serializable, false));
    CHECK(steps_commute(begin, outside(Stmt::kBeginDeferred), serializable, false));
    // Its time would move by a step, and with it a lock's or a token's expiry.
    CHECK_FALSE(steps_commute(begin, in_transaction(Stmt::kAcquireLock), serializable, false));
    CHECK_FALSE(steps_commute(outside(Stmt::kSelectToken), begin, serializable, false));
    CHECK_FALSE(
        steps_commute(begin, {Stmt::kSelectDedup, false, true, false}, serializable, false));
  }
}

TEST_CASE("a plain read commutes with a write another attempt has not committed") {
  const StepFacts read = outside(Stmt::kSelectFlow);
  CHECK(steps_commute(read, in_transaction(Stmt::kDebit), kReadCommitted, false));
  CHECK(steps_commute(in_transaction(Stmt::kClaimFlow), read, kReadCommitted, false));
  CHECK(steps_commute(read, outside(Stmt::kCheckAccounts), kReadCommitted, true));
  // What makes a write visible does not commute with a read: a COMMIT, a ROLLBACK (it lets a
  // waiting statement go), a write outside a transaction.
  CHECK_FALSE(steps_commute(read, in_transaction(Stmt::kCommit), kReadCommitted, false));
  CHECK_FALSE(steps_commute(in_transaction(Stmt::kRollback), read, kReadCommitted, false));
  CHECK_FALSE(steps_commute(read, outside(Stmt::kInsertFlowIfAbsent), kReadCommitted, false));
  // With a statement parked, a write can end a wait (a deadlock), and a third attempt's
  // statement then commits.
  CHECK_FALSE(steps_commute(read, in_transaction(Stmt::kDebit), kReadCommitted, true));
  // A locking read counts as a write: it commutes with a plain read, not with a write.
  CHECK(steps_commute(read, in_transaction(Stmt::kSelectFlowForUpdate), kReadCommitted, false));
  CHECK_FALSE(steps_commute(in_transaction(Stmt::kSelectFlowForUpdate),
                            in_transaction(Stmt::kDebit), kReadCommitted, false));
}

TEST_CASE("at SERIALIZABLE, and for a crashing attempt, reads do not commute") {
  const StepFacts read = in_transaction(Stmt::kSelectFlow);
  CHECK_FALSE(steps_commute(read, in_transaction(Stmt::kDebit), kSerializable, false));
  CHECK_FALSE(steps_commute(read, outside(Stmt::kCheckAccounts), kSerializable, false));
  const StepFacts crashing{Stmt::kSelectFlow, false, false, true};
  CHECK_FALSE(steps_commute(crashing, outside(Stmt::kCheckAccounts), kReadCommitted, false));
  CHECK_FALSE(steps_commute(outside(Stmt::kBeginDeferred), crashing, kReadCommitted, false));
}

TEST_CASE("two writes never commute, whatever rows they touch") {
  CHECK_FALSE(steps_commute(in_transaction(Stmt::kJournalDebit), in_transaction(Stmt::kCredit),
                            kReadCommitted, false));
  CHECK_FALSE(steps_commute(in_transaction(Stmt::kDebit), in_transaction(Stmt::kDebit),
                            kReadCommitted, false));
}

}  // namespace idemlab
