// state-machine: the flow row exists in state 1 (processing); the one attempt whose
// UPDATE ... WHERE status = 1 changes a row does the work. States only move forward.
#include "strategies/common.h"
#include "strategies/registry.h"

namespace idemlab {

namespace {

class StateMachine final : public Strategy {
 public:
  const StrategyInfo& info() const override {
    static const StrategyInfo kInfo{
        .name = "state-machine",
        .title = "move the flow from processing to succeeded with a conditional UPDATE",
        .how =
            "Create the flow row in status 1 (processing) if absent (INSERT ... ON CONFLICT "
            "DO NOTHING: creating an order is naturally idempotent). Read it: already 2 or 3 "
            "means a repeat, answer as before. Otherwise in one write transaction (BEGIN IMMEDIATE "
            "on SQLite) "
            "UPDATE ... SET status = 2 WHERE biz_seq = ? AND status = 1: one changed row means "
            "this attempt does the work; zero means another attempt finished it first.",
        .protects = "concurrent twins that both read status 1: only one UPDATE matches",
        .notes = "",
        .critical_step = "begin",
        .steps = {"check_accounts", "create_flow", "select_flow", "begin", "claim_flow",
                  "select_flow_again", "debit", "credit", "journal_debit", "journal_credit",
                  "finish_flow", "commit", "rollback"},
        .pitfalls =
            {
                PitfallInfo{
                    .id = Pitfall::kNoPrecondition,
                    .reference = "000 and 004 §5.3",
                    .removes =
                        "the status = 1 precondition of the claim: UPDATE ... SET status = 2 "
                        "WHERE biz_seq = ?, without AND status = 1",
                    .goes_wrong =
                        "the UPDATE always changes a row, so every twin that read status 1 "
                        "moves the money",
                    .exposed_by = "concurrent duplicates: a double submit",
                    .shown_by = "simulate --scenario double-click",
                    .verdict = "moved_twice_or_more",
                    .skips = {"claim_flow"},
                    .adds = {"claim_flow_unguarded"},
                },
                success_on_duplicate_pitfall({"select_flow_again"}),
            },
    };
    return kInfo;
  }

  Task<Answer> attempt(Session& session, const TransferRequest& request) const override {
    const bool pitfall = session.has(Pitfall::kNoPrecondition);
    StepResult created = co_await session.exec("create_flow", Stmt::kInsertFlowIfAbsent,
                                               flow_binds(request, info().name, kProcessing, true));
    if (!created.ok()) co_return co_await fail(session, created);
    // No id back: the row existed, a repeat.
    if (!created.row && session.has(Pitfall::kSuccessOnDuplicate))
      co_return repeat_answer(session, std::nullopt, request);
    StepResult flow =
        co_await session.exec("select_flow", Stmt::kSelectFlow, biz_seq_bind(request));
    if (!flow.ok()) co_return co_await fail(session, flow);
    if (!flow.row) co_return Answer::of(Outcome::kBusy, reason::kOwnWriteUnseen);
    const FlowRow row = *flow_of(flow);
    if (Answer seen = answer_from_flow(row, request); seen.outcome != Outcome::kInProgress)
      co_return seen;
    StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
    if (!begun.ok()) co_return co_await fail(session, begun);
    StepResult claimed = co_await session.exec(
        pitfall ? "claim_flow_unguarded" : "claim_flow",
        pitfall ? Stmt::kClaimFlowUnguarded : Stmt::kClaimFlow, biz_seq_bind(request));
    if (!claimed.ok()) co_return co_await fail(session, claimed);
    if (claimed.changes == 0) co_return co_await rollback_and_replay(session, request);
    co_return co_await work_and_commit(session, request, row.id);
  }
};

}  // namespace

const Strategy& state_machine_strategy() {
  static const StateMachine kStrategy;
  return kStrategy;
}

}  // namespace idemlab
