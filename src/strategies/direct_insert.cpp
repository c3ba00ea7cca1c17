// direct-insert: skip the lookup; INSERT the flow row and treat a unique conflict as a repeat.
#include "strategies/common.h"
#include "strategies/registry.h"

namespace idemlab {

namespace {

class DirectInsert final : public Strategy {
 public:
  const StrategyInfo& info() const override {
    static const StrategyInfo kInfo{
        .name = "direct-insert",
        .title = "insert the flow row straight away; a unique conflict means a repeat",
        .how =
            "In one BEGIN IMMEDIATE transaction INSERT the flow row (unique on biz_seq), move "
            "the money, store the answer, COMMIT. A unique-index conflict means the request "
            "was seen before: roll back, read the stored answer and return it as a replay. "
            "Cheapest when repeats are rare: one statement decides.",
        .protects = "sequential retries and concurrent twins, through the unique index alone",
        .pitfall =
            "--pitfall writes the row with an upsert, INSERT ... ON CONFLICT DO UPDATE "
            "(MySQL's ON DUPLICATE KEY UPDATE), and goes on as if it had inserted: the "
            "upsert reports one changed row either way, so the conflict that should have "
            "stopped the repeat is swallowed and every repeat moves the money again.",
        .exposed_by = "any repeat: a retry, a redelivery, a concurrent twin",
        .notes =
            "SQLite's changes() counts an upsert's UPDATE as one row, like an insert; "
            "MySQL reports 2 for it, which code often ignores the same way.",
        .critical_step = "insert_flow",
        .critical_step_pitfall = "upsert_flow",
        .steps = {"check_accounts", "begin", "insert_flow", "upsert_flow", "select_flow_again",
                  "debit", "credit", "journal_debit", "journal_credit", "finish_flow", "commit",
                  "rollback"},
        .safe_only_steps = {"insert_flow"},
        .pitfall_only_steps = {"upsert_flow"},
    };
    return kInfo;
  }

  Task<Answer> attempt(Session& session, const TransferRequest& request) const override {
    const bool pitfall = session.options().pitfall;
    StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
    if (!begun.ok()) co_return co_await fail(session, begun);
    StepResult inserted =
        co_await session.exec(pitfall ? "upsert_flow" : "insert_flow",
                              pitfall ? Stmt::kUpsertFlowHidingConflict : Stmt::kInsertFlow,
                              flow_binds(request, info().name, kProcessing, true));
    if (inserted.code == StepCode::kConstraint)
      co_return co_await rollback_and_replay(session, request);
    if (!inserted.ok()) co_return co_await fail(session, inserted);
    co_return co_await work_and_commit(session, request, returned_id(inserted));
  }
};

}  // namespace

const Strategy& direct_insert_strategy() {
  static const DirectInsert kStrategy;
  return kStrategy;
}

}  // namespace idemlab
