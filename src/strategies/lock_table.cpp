// lock-table: a lock row with an expiry, keyed by biz_seq, stands in for a distributed lock
// (Redis SET NX PX). A lock stops concurrent repeats; the flow row stops late ones.
#include "strategies/common.h"
#include "strategies/registry.h"

namespace idemlab {

namespace {

// The pitfalls, apart from the rest of info() so that each reads on a screen.
std::vector<PitfallInfo> lock_table_pitfalls() {
  return {
      PitfallInfo{
          .id = Pitfall::kNoOwnerCheck,
          .reference = "000 and 004 §5.8; 003, \"Redis\" (release only your own lock)",
          .removes = "the owner checks: the work does not verify the lock is still held, "
                     "and the release deletes whoever holds it",
          .goes_wrong = "an attempt whose lock expired frees a twin's lock; a third copy "
                        "takes it while the twin works, and both move money",
          .exposed_by = "a lock TTL shorter than a slow step, and twins",
          .shown_by = "simulate --scenario lock-expiry",
          .verdict = "moved_twice_or_more",
          .skips = {"check_lock_owner", "select_flow_again", "release_lock"},
          .adds = {"release_lock_any_owner"},
      },
      PitfallInfo{
          .id = Pitfall::kTtlTooShort,
          .reference = "000 and 004 §5.8 (\"a TTL too short stops no duplicate\")",
          .removes = "the fencing: a SET NX PX lock is the only guard, and the work "
                     "checks neither that it still holds the lock nor the record again "
                     "under the write lock",
          .goes_wrong = "with a TTL shorter than the work, a twin takes the expired lock "
                        "while the first attempt still works, and both move money",
          .exposed_by = "--lock-ttl-ms below a slow step inside the lock, and twins",
          .shown_by = "simulate --scenario lock-expiry",
          .verdict = "moved_twice_or_more",
          .skips = {"check_lock_owner", "select_flow_again"},
      },
      PitfallInfo{
          .id = Pitfall::kTtlTooLong,
          .reference = "000 and 004 §5.8 (\"a TTL too long keeps storage and blocks\")",
          .removes = "the bound on the lock's life: it is taken for a day, whatever "
                     "--lock-ttl-ms says, \"to be safe\"",
          .goes_wrong = "a holder that crashes never releases it: every retry is told "
                        "in_progress until the client gives up, and the money never moves",
          .exposed_by = "a crash while holding the lock, then retries (also every "
                        "interleaving: explore --crash)",
          .shown_by = "simulate --scenario crash-holding-lock",
          .verdict = "stuck",
      },
      success_on_duplicate_pitfall({}),
  };
}

class LockTable final : public Strategy {
 public:
  const StrategyInfo& info() const override {
    static const StrategyInfo kInfo{
        .name = "lock-table",
        .title = "take a lock row with an expiry, check the record, work, release",
        .how =
            "Acquire the lock 'transfer:<biz_seq>' with an upsert that only takes it when "
            "free or expired (ShedLock's shape: name, lock_until, locked_at, locked_by). "
            "Not acquired: a twin holds it, answer in_progress (or the stored answer). "
            "Acquired: a finished request left a flow row, answer as before. Otherwise in "
            "one write transaction (BEGIN IMMEDIATE on SQLite) check that the lock is still ours "
            "and unexpired "
            "(a fencing check), check the flow row again, write it, move the money, COMMIT, "
            "then release the lock - only if we still own it.",
        .protects = "concurrent twins (the lock) and late repeats (the flow row)",
        .notes =
            "A TTL too long keeps retries out after a crash until it expires; a TTL too "
            "short, with the owner checks, makes attempts give up with in_progress "
            "instead of doubling. A lock in Redis behind Sentinels (redis-sentinel://) is "
            "replicated asynchronously: taken on a primary that fails over before the replica "
            "has it, it is free on the new primary, and a twin takes it too: two holders. "
            "This strategy still moves money once, because its holder checks the lock and the "
            "record again under the ledger's own lock; a lock trusted alone "
            "(--pitfall=ttl-too-short) moves it twice (docs/replication.md).",
        .critical_step = "begin",
        .steps = {"check_accounts", "acquire_lock", "select_flow", "begin", "check_fence",
                  "check_lock_owner", "select_flow_again", "insert_flow", "debit", "credit",
                  "journal_debit", "journal_credit", "finish_flow", "commit", "rollback",
                  "release_lock"},
        .pitfalls = lock_table_pitfalls(),
        .uses_lock_ttl = true,
    };
    return kInfo;
  }

  Task<Answer> attempt(Session& session, const TransferRequest& request) const override {
    const StrategyOptions& options = session.options();
    const Binds lock = lock_binds(request, options, session.now_ms());
    StepResult acquired = co_await session.exec("acquire_lock", Stmt::kAcquireLock, lock);
    if (!acquired.ok()) co_return co_await fail(session, acquired);
    StepResult flow =
        co_await session.exec("select_flow", Stmt::kSelectFlow, biz_seq_bind(request));
    if (!flow.ok()) co_return co_await fail(session, flow);
    if (acquired.changes == 0) co_return repeat_answer(session, flow_of(flow), request);
    if (flow.row)
      co_return co_await release(session, lock, repeat_answer(session, flow_of(flow), request));
    // --fence: the grant's number, from a lock store that gives one (guard stores do).
    const int64_t fence = acquired.row && !acquired.row->empty() ? as_int((*acquired.row)[0]) : 0;
    Answer answer = co_await work(session, request, lock, fence);
    co_return co_await release(session, lock, answer);
  }

 private:
  static Task<Answer> work(Session& session, const TransferRequest& request, const Binds& lock,
                           int64_t fence) {
    // Under the write lock, check the lock is still ours and the record again.
    const bool checks_again =
        !session.has(Pitfall::kNoOwnerCheck) && !session.has(Pitfall::kTtlTooShort);
    StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
    if (!begun.ok()) co_return co_await fail(session, begun);
    // --fence: the ledger takes this grant's fence only if it is the highest it has seen for
    // the lock, in the money's own transaction: a holder that lost its lock writes nothing.
    if (session.options().fence) {
      StepResult taken =
          co_await session.exec("check_fence", Stmt::kCheckFence, fence_binds(lock, fence));
      if (!taken.ok()) co_return co_await fail(session, taken);
      if (taken.changes == 0) {
        (void)co_await session.exec("rollback", Stmt::kRollback, {});
        co_return Answer::of(Outcome::kInProgress, reason::kFenced);
      }
    }
    if (checks_again) {
      StepResult owned = co_await session.exec("check_lock_owner", Stmt::kCheckLockOwner, lock);
      if (!owned.ok()) co_return co_await fail(session, owned);
      if (!owned.row || as_int((*owned.row)[0]) == 0) {
        (void)co_await session.exec("rollback", Stmt::kRollback, {});
        co_return Answer::of(Outcome::kInProgress);  // our lock expired: someone may hold it
      }
      StepResult flow =
          co_await session.exec("select_flow_again", Stmt::kSelectFlow, biz_seq_bind(request));
      if (!flow.ok()) co_return co_await fail(session, flow);
      if (flow.row) {
        (void)co_await session.exec("rollback", Stmt::kRollback, {});
        co_return repeat_answer(session, flow_of(flow), request);
      }
    }
    StepResult inserted = co_await session.exec(
        "insert_flow", Stmt::kInsertFlow, flow_binds(request, "lock-table", kProcessing, false));
    if (!inserted.ok()) co_return co_await fail(session, inserted);
    co_return co_await work_and_commit(session, request, returned_id(inserted));
  }

  static Task<Answer> release(Session& session, const Binds& lock, Answer answer) {
    const bool any_owner = session.has(Pitfall::kNoOwnerCheck);
    (void)co_await session.exec(any_owner ? "release_lock_any_owner" : "release_lock",
                                any_owner ? Stmt::kReleaseLockAnyOwner : Stmt::kReleaseLock, lock);
    co_return answer;
  }
};

}  // namespace

const Strategy& lock_table_strategy() {
  static const LockTable kStrategy;
  return kStrategy;
}

}  // namespace idemlab
