// token: the client first fetches a one-time token; the server consumes it atomically and only
// then does the work.
#include "strategies/common.h"
#include "strategies/registry.h"

namespace idemlab {

namespace {

class TokenStrategy final : public Strategy {
 public:
  const StrategyInfo& info() const override {
    static const StrategyInfo kInfo{
        .name = "token",
        .title = "consume a one-time token atomically before doing the work",
        .how =
            "`idemlab token issue` stores a token with an expiry. The transfer carries it "
            "(--token). In one write transaction (BEGIN IMMEDIATE on SQLite): UPDATE token SET "
            "used ... WHERE "
            "token = ? AND unused AND unexpired (like Redis DEL, it succeeds for exactly one "
            "caller), write the flow row, move the money, COMMIT. If the token was already "
            "consumed by this same biz_seq, the request is a repeat: answer as before. "
            "Otherwise the answer is token_unknown, token_used or token_expired.",
        .protects = "double submits and retries that carry the same token",
        .notes =
            "A token that expires before a legitimate retry turns the retry into "
            "token_expired. The token is the only guard: flow rows are records here. So "
            "the token, not the biz_seq, names the request: a second token for a biz_seq "
            "that already moved money is a new request, and moves it again (the audit "
            "reports applied_more_than_once). A client must fetch one token per "
            "operation, before its first attempt, and send that same token with every "
            "retry; one that fetches a fresh token to retry (a reloaded form) defeats it. "
            "A pitfall of keeping tokens in a store without persistence (--redis, as Redis "
            "runs by default): the token lives only as long as the store's memory. A Redis "
            "restarted empty forgets every token, issued or used, and each retry is answered "
            "token_unknown (store_lost_or_never_issued) although its first attempt may have "
            "moved the money: ask (idemlab query) before fetching a new token. Behind "
            "Sentinels (redis-sentinel://), Redis replicates asynchronously: a DEL the "
            "primary acknowledged can be missing on the replica a failover promotes, and "
            "the retry finds the token unused and moves the money again; ?wait=N on the URL "
            "narrows that window and cannot close it (docs/replication.md). A token kept in "
            "the ledger's own table is consumed in the money's transaction.",
        .critical_step = "begin",
        .steps = {"check_accounts", "begin", "consume_token", "select_token", "select_flow_again",
                  "insert_flow", "debit", "credit", "journal_debit", "journal_credit",
                  "finish_flow", "commit", "rollback"},
        .pitfalls =
            {
                PitfallInfo{
                    .id = Pitfall::kCheckThenDelete,
                    .reference =
                        "000 and 004 §5.5 (redis.del(token): delete and check in one step)",
                    .removes = "the atomic consume: the token is checked with a SELECT, then "
                               "consumed by an UPDATE that no longer says \"and unused\"",
                    .goes_wrong = "twins that both pass the check both consume the token and both "
                                  "move money",
                    .exposed_by = "concurrent duplicates: a double submit",
                    .shown_by = "simulate --scenario double-click",
                    .verdict = "moved_twice_or_more",
                    .skips = {"consume_token"},
                    .adds = {"check_token", "consume_token_unchecked"},
                },
                success_on_duplicate_pitfall({"select_token", "select_flow_again"}),
            },
        .needs_token = true,
    };
    return kInfo;
  }

  Task<Answer> attempt(Session& session, const TransferRequest& request) const override {
    const bool pitfall = session.has(Pitfall::kCheckThenDelete);
    const Binds token = token_binds(request, session.options().token);
    if (pitfall) {
      StepResult checked = co_await session.exec("check_token", Stmt::kSelectToken, token);
      if (!checked.ok()) co_return co_await fail(session, checked);
      if (auto refused = refusal(session, request, checked)) {
        if (refused->outcome != Outcome::kInProgress) co_return *refused;
        co_return co_await rollback_and_replay(session, request);
      }
    }
    StepResult begun = co_await session.exec("begin", Stmt::kBeginImmediate, {});
    if (!begun.ok()) co_return co_await fail(session, begun);
    StepResult consumed =
        co_await session.exec(pitfall ? "consume_token_unchecked" : "consume_token",
                              pitfall ? Stmt::kConsumeTokenUnchecked : Stmt::kConsumeToken, token);
    if (!consumed.ok()) co_return co_await fail(session, consumed);
    if (consumed.changes == 0) {
      if (session.has(Pitfall::kSuccessOnDuplicate)) {  // "DEL returned 0: a repeat, success"
        (void)co_await session.exec("rollback", Stmt::kRollback, {});
        co_return repeat_answer(session, std::nullopt, request);
      }
      StepResult found = co_await session.exec("select_token", Stmt::kSelectToken, token);
      if (!found.ok()) co_return co_await fail(session, found);
      auto refused = refusal(session, request, found);
      if (refused && refused->outcome != Outcome::kInProgress) {
        (void)co_await session.exec("rollback", Stmt::kRollback, {});
        co_return *refused;
      }
      co_return co_await rollback_and_replay(session, request);
    }
    StepResult flow = co_await session.exec("insert_flow", Stmt::kInsertFlow,
                                            flow_binds(request, info().name, kProcessing, false));
    if (!flow.ok()) co_return co_await fail(session, flow);
    co_return co_await work_and_commit(session, request, returned_id(flow));
  }

 private:
  // Why a token cannot be consumed, from its row: nothing if it is usable; in_progress when
  // this same request consumed it (a repeat: answer from the flow row).
  static std::optional<Answer> refusal(Session& session, const TransferRequest& request,
                                       const StepResult& found) {
    if (!found.row)  // a guard store keeps a token only as long as it keeps its memory
      return Answer::of(Outcome::kTokenUnknown,
                        session.guard_store() ? reason::kStoreLostOrNeverIssued : "");
    const Row& row = *found.row;
    if (!is_null(row[1])) {
      if (as_text(row[2]) == request.biz_seq && as_text(row[3]) == request.source)
        return Answer::of(Outcome::kInProgress);
      return Answer::of(Outcome::kTokenUsed);
    }
    if (as_int(row[0]) <= session.now_ms()) return Answer::of(Outcome::kTokenExpired);
    return std::nullopt;
  }
};

}  // namespace

const Strategy& token_strategy() {
  static const TokenStrategy kStrategy;
  return kStrategy;
}

}  // namespace idemlab
