// select-for-update: pessimistic locking. On PostgreSQL and MariaDB, SELECT ... FOR UPDATE
// locks the flow row, if it exists. SQLite has no row locks; BEGIN IMMEDIATE takes the
// database's write lock up front, which stands in for it.
#include "strategies/common.h"
#include "strategies/registry.h"

namespace idemlab {

namespace {

class SelectForUpdate final : public Strategy {
 public:
  const StrategyInfo& info() const override {
    static const StrategyInfo kInfo{
        .name = "select-for-update",
        .title = "lock, check the status, act, update the status, commit - in one transaction",
        .how =
            "Begin, and read the flow row by biz_seq under a lock (SELECT ... FOR UPDATE on a "
            "server; on SQLite BEGIN IMMEDIATE takes the write lock): present means a "
            "repeat, answer as before. Absent: INSERT it, move the money, store the answer, "
            "COMMIT (which releases the lock). The check and the act happen under one lock, "
            "so a twin waits and then sees the finished row.",
        .protects = "check-then-act races between concurrent twins",
        .notes =
            "How SQLite emulates the row lock: SQLite has no SELECT ... FOR UPDATE and no "
            "row locks. BEGIN IMMEDIATE takes the RESERVED (in WAL mode: the single "
            "writer) lock at once, so it locks the whole database against other writers, "
            "not one row; readers carry on from their snapshots. A twin's BEGIN IMMEDIATE "
            "waits up to the busy timeout. Had the read and the write been in one BEGIN "
            "DEFERRED transaction instead, SQLite would not double the transfer: the "
            "second writer's read snapshot is stale once the first commits, and its write "
            "fails with SQLITE_BUSY_SNAPSHOT (answered here as busy, reason busy_snapshot), "
            "a safe but noisy error rather than a double.",
        .critical_step = "insert_flow",
        .steps = {"check_accounts", "begin", "select_flow", "insert_flow", "debit", "credit",
                  "journal_debit", "journal_credit", "finish_flow", "commit", "rollback",
                  "select_flow_again"},
        .pitfalls =
            {
                PitfallInfo{
                    .id = Pitfall::kCheckOutsideLock,
                    .reference = "000 and 004 §5.6 (check and act under one lock)",
                    .removes = "the check under the lock: the status is read before the locking "
                               "transaction, which then acts without reading it again",
                    .goes_wrong = "twins that both read \"absent\" both act: a double transfer",
                    .exposed_by = "concurrent duplicates: a double submit",
                    .shown_by = "simulate --scenario double-click",
                    .verdict = "moved_twice_or_more",
                    .critical_step = "begin",
                },
                success_on_duplicate_pitfall({"select_flow_again"}),
            },
        .offers_unique_index = true,
    };
    return kInfo;
  }

  Task<Answer> attempt(Session& session, const TransferRequest& request) const override {
    const bool pitfall = session.has(Pitfall::kCheckOutsideLock);
    if (pitfall) {
      StepResult flow =
          co_await session.exec("select_flow", Stmt::kSelectFlow, biz_seq_bind(request));
      if (!flow.ok()) co_return co_await fail(session, flow);
      if (flow.row) co_return repeat_answer(session, flow_of(flow), request);
    }
    StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
    if (!begun.ok()) co_return co_await fail(session, begun);
    if (!pitfall) {
      StepResult flow =
          co_await session.exec("select_flow", Stmt::kSelectFlowForUpdate, biz_seq_bind(request));
      if (!flow.ok()) co_return co_await fail(session, flow);
      if (flow.row) {
        (void)co_await session.exec("rollback", Stmt::kRollback, {});
        co_return repeat_answer(session, flow_of(flow), request);
      }
    }
    // Without --unique-index the lock is the only guard: where FOR UPDATE locks no missing row
    // (PostgreSQL), twins both insert. With it, the loser's INSERT meets the winner's key.
    StepResult inserted = co_await session.exec(
        "insert_flow", Stmt::kInsertFlow,
        flow_binds(request, info().name, kProcessing, session.options().unique_index));
    if (inserted.code == StepCode::kConstraint)
      co_return co_await rollback_and_replay(session, request);
    if (!inserted.ok()) co_return co_await fail(session, inserted);
    co_return co_await work_and_commit(session, request, returned_id(inserted));
  }
};

}  // namespace

const Strategy& select_for_update_strategy() {
  static const SelectForUpdate kStrategy;
  return kStrategy;
}

}  // namespace idemlab
