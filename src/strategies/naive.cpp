// naive: the unprotected baseline. Every attempt moves the money.
#include "strategies/common.h"
#include "strategies/registry.h"

namespace idemlab {

namespace {

class Naive final : public Strategy {
 public:
  const StrategyInfo& info() const override {
    static const StrategyInfo kInfo{
        .name = "naive",
        .title = "no protection at all: the baseline",
        .how =
            "In one write transaction (BEGIN IMMEDIATE on SQLite) write a flow row, move the "
            "money, store the "
            "answer, COMMIT. It never looks for an earlier attempt.",
        .protects = "nothing: every retry, redelivery and double click moves money again",
        .notes = "",
        .critical_step = "begin",
        .steps = {"check_accounts", "begin", "insert_flow", "debit", "credit", "journal_debit",
                  "journal_credit", "finish_flow", "commit", "rollback"},
        .guarded = false,
    };
    return kInfo;
  }

  Task<Answer> attempt(Session& session, const TransferRequest& request) const override {
    StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
    if (!begun.ok()) co_return co_await fail(session, begun);
    StepResult inserted = co_await session.exec(
        "insert_flow", Stmt::kInsertFlow, flow_binds(request, info().name, kProcessing, false));
    if (!inserted.ok()) co_return co_await fail(session, inserted);
    co_return co_await work_and_commit(session, request, returned_id(inserted));
  }
};

}  // namespace

const Strategy& naive_strategy() {
  static const Naive kStrategy;
  return kStrategy;
}

}  // namespace idemlab
