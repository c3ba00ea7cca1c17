// Shared strategy steps.
#include "strategies/common.h"

#include <fmt/format.h>

#include "core/limits.h"

namespace idemlab {

// Bind lists are built here, outside coroutine bodies: GCC 12 miscompiles braced initializer
// lists inside a coroutine ("array used as initializer").
namespace {

// The journal is tagged with the request's source and biz_seq, whatever key the guards saw.
Binds money_binds(const TransferRequest& request) {
  return {{":source", request.source},
          {":biz_seq", request.biz_seq},
          {":from", request.from},
          {":to", request.to},
          {":amount", request.amount_minor}};
}

Binds finish_binds(int64_t flow_id, const Answer& answer) {
  const bool applied = answer.outcome == Outcome::kApplied;
  return {{":flow_id", flow_id},
          {":status", int64_t{applied ? kSucceeded : kFailed}},
          {":outcome", std::string(applied ? "applied" : "rejected")},
          {":reason", applied ? Value{} : Value{answer.reason}}};
}

}  // namespace

Binds flow_binds(const TransferRequest& request, std::string_view strategy, int64_t status,
                 bool unique_key) {
  return {{":source", request.source},
          {":biz_seq", key_value(request)},
          {":from", request.from},
          {":to", request.to},
          {":amount", request.amount_minor},
          {":status", status},
          {":unique_key", int64_t{unique_key ? 1 : 0}},
          {":strategy", std::string(strategy)}};
}

Binds biz_seq_bind(const TransferRequest& request) {
  return {{":source", request.source}, {":biz_seq", key_value(request)}};
}

namespace {
std::string dedup_key(const Session& session, const TransferRequest& request) {
  if (session.has(Pitfall::kKeyWithoutSource)) return request.biz_seq;
  return request.source + ":" + request.biz_seq;
}
}  // namespace

Binds dedup_binds(const Session& session, const TransferRequest& request) {
  return {{":key", dedup_key(session, request)},
          {":source", request.source},
          {":biz_seq", request.biz_seq},
          {":payload", payload_text(request)}};
}

Binds dedup_key_bind(const Session& session, const TransferRequest& request) {
  return {{":key", dedup_key(session, request)}};
}

Binds token_binds(const TransferRequest& request, const std::string& token) {
  return {{":token", token}, {":source", request.source}, {":biz_seq", request.biz_seq}};
}

Binds lock_binds(const TransferRequest& request, const StrategyOptions& options, int64_t now_ms) {
  // ttl-too-long: the lock is taken for as long as any work could take, so a crashed
  // holder's lock outlives every retry.
  const int64_t ttl_ms =
      options.pitfall == Pitfall::kTtlTooLong ? limits::kMaxDurationMs : options.lock_ttl_ms;
  return {{":name", "transfer:" + request.source + ":" + request.biz_seq},
          {":owner", options.owner},
          {":until", add_ms(now_ms, ttl_ms)}};
}

Binds fence_binds(const Binds& lock, int64_t fence) {
  Binds out;
  for (const Bind& bind : lock)
    if (std::string_view(bind.name) != ":until") out.push_back(bind);
  out.push_back({":fence", fence});
  return out;
}

Binds version_binds(int64_t flow_id, int64_t version) {
  return {{":flow_id", flow_id}, {":version", version}};
}

std::optional<FlowRow> flow_of(const StepResult& found) {
  if (!found.row) return std::nullopt;
  const Row& row = *found.row;  // the columns of Stmt::kSelectFlow, in order
  return FlowRow{as_int(row[0]), as_text(row[1]), as_text(row[2]), as_int(row[3]),
                 as_int(row[4]), as_int(row[5]),  as_text(row[6]), as_text(row[7])};
}

Answer answer_from_flow(const FlowRow& flow, const TransferRequest& request) {
  if (flow.from != request.from || flow.to != request.to ||
      flow.amount_minor != request.amount_minor)
    return Answer::of(Outcome::kMismatch);
  if (flow.status == kSucceeded && flow.outcome == "applied")
    return Answer{Outcome::kApplied, "", true};
  if (flow.status == kFailed) return Answer{Outcome::kRejected, flow.reason, true};
  return Answer::of(Outcome::kInProgress);
}

Answer repeat_answer(const Session& session, const std::optional<FlowRow>& flow,
                     const TransferRequest& request) {
  if (session.has(Pitfall::kSuccessOnDuplicate)) return Answer::of(Outcome::kApplied);
  return flow ? answer_from_flow(*flow, request) : Answer::of(Outcome::kInProgress);
}

Task<Answer> fail(Session& session, StepResult failed) {
  // Read before the rollback becomes the pending step.
  if (failed.link_lost())
    session.note_lost_connection(fmt::format("{}: {}", session.pending_location(), failed.error));
  if (failed.code == StepCode::kUnreplicated)
    session.note_unreplicated(fmt::format("{}: {}", session.pending_location(), failed.error));
  // On a Galera node a statement outside a transaction commits by itself, and is certified
  // there: with wsrep_retry_autocommit=0 a refusal surfaces as its 1213.
  const bool on_galera =
      session.options().galera_node ||
      (session.connection().engine() == Engine::kMariadb && !session.connection().node().empty());
  const bool at_commit =
      session.pending().stmt == Stmt::kCommit || (!session.in_own_transaction() && on_galera);
  if (session.connection().in_transaction())
    (void)co_await session.exec("rollback", Stmt::kRollback, {});
  switch (failed.code) {
    case StepCode::kBusy:
      co_return Answer::of(Outcome::kBusy, reason::kDatabaseBusy);
    case StepCode::kBusySnapshot:
      co_return Answer::of(Outcome::kBusy, reason::kBusySnapshot);
    case StepCode::kSerialization:  // the server rolled the transaction back: safe to retry
      co_return Answer::of(Outcome::kBusy, reason::kSerializationFailure);
    case StepCode::kDeadlock:  // a lone server takes no lock at COMMIT: a cluster certified
      co_return Answer::of(Outcome::kBusy,
                           at_commit ? reason::kCertificationFailed : reason::kDeadlock);
    case StepCode::kLockTimeout:  // a twin holds the row: rolled back whole, MariaDB included
      co_return Answer::of(Outcome::kInProgress, reason::kLockWaitTimeout);
    case StepCode::kConnectionLost:  // the COMMIT may or may not have reached the server
      co_return Answer::of(Outcome::kTimeout, reason::kConnectionLost);
    case StepCode::kUnreplicated:  // the guard stands on the primary, which a failover may lose
      co_return Answer::of(Outcome::kTimeout, reason::kUnreplicated);
    case StepCode::kReadOnly:  // this statement wrote nothing; a failover may be under way
      co_return Answer::of(Outcome::kBusy, reason::kReadOnly);
    case StepCode::kNotReady:
      co_return Answer::of(Outcome::kBusy, reason::kNodeNotReady);
    case StepCode::kDiskFull:  // the write did not happen, and the transaction rolled back
      co_return Answer::of(Outcome::kBusy, reason::kDiskFull);
    case StepCode::kIoError:
      if (at_commit) co_return Answer::of(Outcome::kTimeout, reason::kIoErrorAtCommit);
      co_return Answer::of(Outcome::kError, "the disk failed: " + failed.error);
    default:
      co_return Answer::of(Outcome::kError, failed.error);
  }
}

Task<Answer> move_money(Session& session, const TransferRequest& request) {
  const Binds binds = money_binds(request);
  StepResult debit = co_await session.exec("debit", Stmt::kDebit, binds);
  if (!debit.ok()) co_return co_await fail(session, debit);
  if (debit.changes == 0) co_return Answer::of(Outcome::kRejected, reason::kInsufficientFunds);
  StepResult credit = co_await session.exec("credit", Stmt::kCredit, binds);
  if (!credit.ok()) co_return co_await fail(session, credit);
  StepResult journal_debit = co_await session.exec("journal_debit", Stmt::kJournalDebit, binds);
  if (!journal_debit.ok()) co_return co_await fail(session, journal_debit);
  StepResult journal_credit = co_await session.exec("journal_credit", Stmt::kJournalCredit, binds);
  if (!journal_credit.ok()) co_return co_await fail(session, journal_credit);
  co_return Answer::of(Outcome::kApplied);
}

Task<Answer> work_and_commit(Session& session, const TransferRequest& request, int64_t flow_id,
                             Stmt finish) {
  Answer answer = co_await move_money(session, request);
  if (answer.outcome != Outcome::kApplied && answer.outcome != Outcome::kRejected) co_return answer;
  StepResult stored = co_await session.exec("finish_flow", finish, finish_binds(flow_id, answer));
  if (!stored.ok()) co_return co_await fail(session, stored);
  StepResult logged = session.committing(answer);
  if (!logged.ok()) co_return co_await fail(session, logged);
  StepResult committed = co_await session.exec("commit", Stmt::kCommit, {});
  if (!committed.ok()) co_return co_await fail(session, committed);
  co_return answer;
}

Task<Answer> rollback_and_replay(Session& session, const TransferRequest& request) {
  if (session.connection().in_transaction())
    (void)co_await session.exec("rollback", Stmt::kRollback, {});
  if (session.has(Pitfall::kSuccessOnDuplicate))
    co_return repeat_answer(session, std::nullopt, request);
  StepResult flow =
      co_await session.exec("select_flow_again", Stmt::kSelectFlow, biz_seq_bind(request));
  if (!flow.ok()) co_return co_await fail(session, flow);
  co_return repeat_answer(session, flow_of(flow), request);
}

int64_t returned_id(const StepResult& result) {
  return result.row ? as_int((*result.row)[0]) : 0;
}

}  // namespace idemlab
