// optimistic-lock: read the version, then claim with UPDATE ... WHERE version = ?; one changed
// row means this attempt does the work. Versions must only increase.
#include "strategies/common.h"
#include "strategies/registry.h"

namespace idemlab {

namespace {

class OptimisticLock final : public Strategy {
 public:
  const StrategyInfo& info() const override {
    static const StrategyInfo kInfo{
        .name = "optimistic-lock",
        .title = "claim the flow row with a version check; versions only increase",
        .how =
            "Create the flow row if absent (version 0). Read it: finished means a repeat, "
            "answer as before. Otherwise remember its version v and, in one write transaction "
            "(BEGIN IMMEDIATE on SQLite) "
            "transaction, UPDATE ... SET version = version + 1 WHERE id = ? AND version = v. "
            "One changed row: move the money and store the answer, bumping the version "
            "again. Zero: someone else moved the version; answer from the row.",
        .protects = "concurrent twins holding the same stale read: only the first claim matches",
        .notes = "The claim does not look at the status on purpose: the version is the guard.",
        .critical_step = "begin",
        .steps = {"check_accounts", "create_flow", "read_version", "begin", "claim_version",
                  "select_flow_again", "debit", "credit", "journal_debit", "journal_credit",
                  "finish_flow", "commit", "rollback"},
        .pitfalls =
            {
                PitfallInfo{
                    .id = Pitfall::kAba,
                    .reference = "000 and 004 §5.7 (versions must only increase); 002, \"database "
                                 "optimistic lock\"",
                    .removes = "the rule that versions only increase: the version is a busy flag "
                               "that finish sets back down (version = version - 1)",
                    .goes_wrong =
                        "a twin that read version 0 before the first attempt ran finds "
                        "version 0 again afterwards (ABA), and its claim matches: a double "
                        "transfer",
                    .exposed_by = "concurrent duplicates with stale reads: a double submit",
                    .shown_by = "simulate --scenario aba-version",
                    .verdict = "moved_twice_or_more",
                },
                success_on_duplicate_pitfall({"select_flow_again"}),
            },
    };
    return kInfo;
  }

  Task<Answer> attempt(Session& session, const TransferRequest& request) const override {
    StepResult created = co_await session.exec("create_flow", Stmt::kInsertFlowIfAbsent,
                                               flow_binds(request, info().name, kPending, true));
    if (!created.ok()) co_return co_await fail(session, created);
    if (!created.row && session.has(Pitfall::kSuccessOnDuplicate))
      co_return repeat_answer(session, std::nullopt, request);
    StepResult flow =
        co_await session.exec("read_version", Stmt::kSelectFlow, biz_seq_bind(request));
    if (!flow.ok()) co_return co_await fail(session, flow);
    if (!flow.row) co_return Answer::of(Outcome::kBusy, reason::kOwnWriteUnseen);
    const FlowRow row = *flow_of(flow);
    if (Answer seen = answer_from_flow(row, request); seen.outcome != Outcome::kInProgress)
      co_return seen;
    const int64_t flow_id = row.id;
    StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
    if (!begun.ok()) co_return co_await fail(session, begun);
    StepResult claimed = co_await session.exec("claim_version", Stmt::kClaimVersion,
                                               version_binds(flow_id, row.version));
    if (!claimed.ok()) co_return co_await fail(session, claimed);
    if (claimed.changes == 0) co_return co_await rollback_and_replay(session, request);
    co_return co_await work_and_commit(
        session, request, flow_id,
        session.has(Pitfall::kAba) ? Stmt::kFinishVersionRestoring : Stmt::kFinishVersion);
  }
};

}  // namespace

const Strategy& optimistic_lock_strategy() {
  static const OptimisticLock kStrategy;
  return kStrategy;
}

}  // namespace idemlab
