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
            "In one write transaction (BEGIN IMMEDIATE on SQLite) INSERT the flow row (unique on "
            "biz_seq), move "
            "the money, store the answer, COMMIT. A unique-index conflict means the request "
            "was seen before: roll back, read the stored answer and return it as a replay. "
            "Cheapest when repeats are rare: one statement decides.",
        .protects = "sequential retries and concurrent twins, through the unique index alone",
        .notes =
            "SQLite's changes() counts an upsert's UPDATE as one row, like an insert; "
            "MySQL reports 2 for it, which code often ignores the same way.",
        .critical_step = "insert_flow",
        .steps = {"check_accounts", "begin", "insert_flow", "select_flow_again", "debit", "credit",
                  "journal_debit", "journal_credit", "finish_flow", "commit", "rollback"},
        .pitfalls =
            {
                PitfallInfo{
                    .id = Pitfall::kUpsertCarriesOn,
                    .reference = "002, \"database unique index\" (INSERT ... ON DUPLICATE KEY "
                                 "UPDATE); 000 and 004 §5.2",
                    .removes = "the conflict itself: the row is written with INSERT ... ON "
                               "CONFLICT DO UPDATE, which hands back the row's id whether it was "
                               "new or not, and the code carries on as if it were new",
                    .goes_wrong = "every repeat moves the money again. 002's advice is right for "
                                  "recording a row, where a repeat just touches it again; before "
                                  "moving money the conflict is the one signal that says "
                                  "\"repeat\", and the upsert swallows it",
                    .exposed_by = "any repeat: a retry after a lost response, a redelivery, a twin",
                    .shown_by = "simulate --scenario response-lost",
                    .verdict = "moved_twice_or_more",
                    .critical_step = "upsert_flow",
                    .skips = {"insert_flow", "select_flow_again"},
                    .adds = {"upsert_flow"},
                },
                success_on_duplicate_pitfall({"select_flow_again"}),
                missing_key_pitfall(),
            },
    };
    return kInfo;
  }

  Task<Answer> attempt(Session& session, const TransferRequest& request) const override {
    const bool pitfall = session.has(Pitfall::kUpsertCarriesOn);
    StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
    if (!begun.ok()) co_return co_await fail(session, begun);
    StepResult inserted = co_await session.exec(
        pitfall ? "upsert_flow" : "insert_flow", pitfall ? Stmt::kUpsertFlow : Stmt::kInsertFlow,
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
