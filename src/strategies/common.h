// Steps several strategies share: moving the money, recording and replaying answers, failing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/task.h"
#include "ledger/answer.h"
#include "ledger/request.h"
#include "strategies/session.h"

namespace idemlab {

enum FlowStatus : int64_t { kPending = 0, kProcessing = 1, kSucceeded = 2, kFailed = 3 };

// A flow row as Stmt::kSelectFlow reads it, decoded once.
struct FlowRow {
  int64_t id = 0;
  std::string from;
  std::string to;
  int64_t amount_minor = 0;
  int64_t status = kPending;  // a FlowStatus
  int64_t version = 0;
  std::string outcome;  // the stored answer: applied, rejected, or empty
  std::string reason;
};
// The flow row a kSelectFlow step found, if it found one.
std::optional<FlowRow> flow_of(const StepResult& found);

// Binds for inserting a flow row for `request`.
Binds flow_binds(const TransferRequest& request, std::string_view strategy, int64_t status,
                 bool unique_key);
// The request's identity as guards look it up: its source and key (NULL when it has none).
Binds biz_seq_bind(const TransferRequest& request);
// Binds are built by these plain functions, never as braced lists inside a coroutine body:
// GCC 12 miscompiles those ("array used as initializer").
// The dedup row: its key is source and biz_seq (003), or the serial number alone with
// --pitfall=key-without-source.
Binds dedup_binds(const Session& session, const TransferRequest& request);
Binds dedup_key_bind(const Session& session, const TransferRequest& request);
Binds token_binds(const TransferRequest& request, const std::string& token);
Binds lock_binds(const TransferRequest& request, const StrategyOptions& options, int64_t now_ms);
Binds version_binds(int64_t flow_id, int64_t version);
// The fence check's binds: the lock's name and owner, and the fence its grant carried.
Binds fence_binds(const Binds& lock, int64_t fence);

// What a repeat is told, from the flow row the first attempt left: the stored answer marked as
// a replay, a mismatch if the payload differs, or in_progress if no answer is stored yet.
Answer answer_from_flow(const FlowRow& flow, const TransferRequest& request);

// A repeat was detected (a conflict, a lock taken, a row found): answer from the flow row if
// there is one, in_progress if not. With --pitfall=success-on-duplicate it is "applied",
// whatever the first attempt did: the references' "catch the conflict, return success".
Answer repeat_answer(const Session& session, const std::optional<FlowRow>& flow,
                     const TransferRequest& request);

// Rolls back an open transaction and turns an unexpected step result into an answer
// (busy, busy_snapshot, or error).
Task<Answer> fail(Session& session, StepResult failed);

// Inside an open transaction: debit, credit, two journal entries. Returns applied, rejected
// (insufficient_funds; nothing written), or a failure answer after rolling back.
Task<Answer> move_money(Session& session, const TransferRequest& request);

// Inside an open transaction: move the money, store the answer on flow row `flow_id`, commit.
// `finish` is the statement that stores it (strategies with versions pass their own).
Task<Answer> work_and_commit(Session& session, const TransferRequest& request, int64_t flow_id,
                             Stmt finish = Stmt::kFinishFlow);

// Rolls back, then answers from the flow row (for a repeat detected inside a transaction);
// with --pitfall=success-on-duplicate, answers "applied" without reading it.
Task<Answer> rollback_and_replay(Session& session, const TransferRequest& request);

// The flow row's id from an INSERT ... RETURNING id.
int64_t returned_id(const StepResult& result);

}  // namespace idemlab
