// dedup-table: a separate table keyed by the request id, inserted first; a conflict is a repeat.
#include "strategies/common.h"
#include "strategies/registry.h"

namespace idemlab {

namespace {

class DedupTable final : public Strategy {
 public:
  const StrategyInfo& info() const override {
    static const StrategyInfo kInfo{
        .name = "dedup-table",
        .title = "insert the request id into a dedup table first; a conflict is a repeat",
        .how =
            "In one write transaction (BEGIN IMMEDIATE on SQLite) INSERT (biz_seq, source, "
            "payload) into the "
            "dedup table, write the flow row, move the money, store the answer, COMMIT. A "
            "primary-key conflict on the dedup row means a repeat: answer from the flow row. "
            "Dedup stays apart from the business tables.",
        .protects =
            "retries and concurrent twins, as long as the dedup row and the business "
            "effect commit together",
        .notes =
            "audit warns about a dedup row with no answer older than --stale-after-ms "
            "(unanswered_dedup_record).",
        .critical_step = "commit",
        .steps = {"check_accounts", "begin", "insert_dedup", "select_flow_again", "select_dedup",
                  "insert_flow", "debit", "credit", "journal_debit", "journal_credit",
                  "finish_flow", "commit", "rollback"},
        .pitfalls =
            {
                PitfallInfo{
                    .id = Pitfall::kSeparateTransactions,
                    .reference = "000 and 004 §5.4; 003, \"database dedup table\"",
                    .removes = "the single transaction: the dedup row commits on its own before "
                               "the business transaction",
                    .goes_wrong =
                        "a crash between the two leaves a dedup row with no answer: every "
                        "retry is refused as a repeat and the money never moves. A "
                        "business step that fails removes the record so a retry can run, "
                        "as the references advise, but a crash cannot",
                    .exposed_by = "a crash after insert_dedup, then a retry (also every "
                                  "interleaving: explore --crash)",
                    .shown_by = "simulate --scenario crash-mid-transfer",
                    .verdict = "stuck",
                    .critical_step = "begin",
                    .adds = {"delete_dedup"},
                },
                PitfallInfo{
                    .id = Pitfall::kKeyWithoutSource,
                    .reference = "003, \"database dedup table\" (the key is serial number plus "
                                 "source type)",
                    .removes = "the source in the dedup key: the key is the serial number alone",
                    .goes_wrong = "two sources number their requests independently, so their "
                                  "requests with the same serial number collide: the second is "
                                  "refused as a mismatched repeat (or replayed), and never moves",
                    .exposed_by = "requests from two sources (--sources api,batch)",
                    .shown_by = "simulate --scenario two-sources",
                    .verdict = "refused",
                },
                success_on_duplicate_pitfall({"select_flow_again", "select_dedup"}),
            },
    };
    return kInfo;
  }

  Task<Answer> attempt(Session& session, const TransferRequest& request) const override {
    const bool pitfall = session.has(Pitfall::kSeparateTransactions);
    const Binds dedup = dedup_binds(session, request);
    if (!pitfall) {
      StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
      if (!begun.ok()) co_return co_await fail(session, begun);
    }
    StepResult inserted = co_await session.exec("insert_dedup", Stmt::kInsertDedup, dedup);
    if (inserted.code == StepCode::kConstraint) co_return co_await repeat(session, request);
    if (!inserted.ok()) co_return co_await fail(session, inserted);
    if (pitfall) {
      StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
      if (!begun.ok()) co_return co_await give_back(session, request, begun);
    }
    StepResult flow = co_await session.exec("insert_flow", Stmt::kInsertFlow,
                                            flow_binds(request, info().name, kProcessing, false));
    if (!flow.ok()) co_return co_await give_back(session, request, flow);
    Answer answer = co_await work_and_commit(session, request, returned_id(flow));
    if (pitfall && !is_definitive(answer.outcome)) {
      (void)co_await session.exec("delete_dedup", Stmt::kDeleteDedup,
                                  dedup_key_bind(session, request));
    }
    co_return answer;
  }

 private:
  // A conflict on the dedup row: answer from the flow row; without one, the first attempt is
  // still running, or (pitfall) died between its two transactions and never will finish.
  static Task<Answer> repeat(Session& session, const TransferRequest& request) {
    Answer answer = co_await rollback_and_replay(session, request);
    if (answer.outcome != Outcome::kInProgress || session.has(Pitfall::kSuccessOnDuplicate))
      co_return answer;
    StepResult dedup =
        co_await session.exec("select_dedup", Stmt::kSelectDedup, dedup_key_bind(session, request));
    if (dedup.ok() && dedup.row && as_text((*dedup.row)[0]) != payload_text(request))
      co_return Answer::of(Outcome::kMismatch);
    co_return answer;
  }

  // The business transaction failed: with the pitfall's split transactions, remove the dedup
  // record so that a retry can run.
  static Task<Answer> give_back(Session& session, const TransferRequest& request,
                                StepResult failed) {
    Answer answer = co_await fail(session, failed);
    if (session.has(Pitfall::kSeparateTransactions))
      (void)co_await session.exec("delete_dedup", Stmt::kDeleteDedup,
                                  dedup_key_bind(session, request));
    co_return answer;
  }
};

}  // namespace

const Strategy& dedup_table_strategy() {
  static const DedupTable kStrategy;
  return kStrategy;
}

}  // namespace idemlab
