// select-insert: look the request up; if absent, insert its flow row under a unique index and
// treat a conflict on insert as a repeat too (two twins can both find nothing).
#include "strategies/common.h"
#include "strategies/registry.h"

namespace idemlab {

namespace {

class SelectInsert final : public Strategy {
 public:
  const StrategyInfo& info() const override {
    static const StrategyInfo kInfo{
        .name = "select-insert",
        .title = "select the flow by biz_seq, insert it if absent; a unique conflict is a repeat",
        .how =
            "SELECT the flow row by biz_seq outside any transaction. Found: a repeat, answer "
            "as before. Not found: in one write transaction (BEGIN IMMEDIATE on SQLite) INSERT the "
            "flow row, "
            "move the money, store the answer, COMMIT. A unique-index conflict on the INSERT "
            "means a twin got there first: roll back and answer as a repeat.",
        .protects =
            "sequential retries (the SELECT finds the row) and concurrent twins (the "
            "unique index refuses the second INSERT)",
        .notes =
            "The unique index is partial (WHERE unique_key = 1), so --pitfall rows are "
            "really outside it: nothing is faked.",
        .critical_step = "begin",
        .steps = {"check_accounts", "select_flow", "begin", "insert_flow", "select_flow_again",
                  "debit", "credit", "journal_debit", "journal_credit", "finish_flow", "commit",
                  "rollback"},
        .pitfalls =
            {
                PitfallInfo{
                    .id = Pitfall::kNoUniqueIndex,
                    .reference = "000 and 004 §5.1 (the conflict catch is still needed after the "
                                 "select)",
                    .removes = "the unique index behind the INSERT: the flow row is written with "
                               "unique_key = 0, outside the partial index",
                    .goes_wrong = "twins that both SELECT nothing both INSERT and both move money",
                    .exposed_by = "concurrent duplicates: a double submit",
                    .shown_by = "simulate --scenario double-click",
                    .verdict = "moved_twice_or_more",
                },
                success_on_duplicate_pitfall({"select_flow_again"}),
                missing_key_pitfall(),
            },
    };
    return kInfo;
  }

  Task<Answer> attempt(Session& session, const TransferRequest& request) const override {
    StepResult found =
        co_await session.exec("select_flow", Stmt::kSelectFlow, biz_seq_bind(request));
    if (!found.ok()) co_return co_await fail(session, found);
    if (found.row) co_return repeat_answer(session, flow_of(found), request);
    StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
    if (!begun.ok()) co_return co_await fail(session, begun);
    StepResult inserted = co_await session.exec(
        "insert_flow", Stmt::kInsertFlow,
        flow_binds(request, info().name, kProcessing, !session.has(Pitfall::kNoUniqueIndex)));
    if (inserted.code == StepCode::kConstraint)
      co_return co_await rollback_and_replay(session, request);
    if (!inserted.ok()) co_return co_await fail(session, inserted);
    co_return co_await work_and_commit(session, request, returned_id(inserted));
  }
};

}  // namespace

const Strategy& select_insert_strategy() {
  static const SelectInsert kStrategy;
  return kStrategy;
}

}  // namespace idemlab
