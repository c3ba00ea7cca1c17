// One line per statement kind; anything not listed falls back to the row count.
#include "attempt/step_values.h"

#include <fmt/format.h>

#include "attempt/trace.h"
#include "strategies/common.h"

namespace idemlab {

namespace {

Value bound(const Binds& binds, std::string_view name) {
  for (const Bind& bind : binds)
    if (name == bind.name) return bind.value;
  return Value{};
}

std::string text_of(const Value& value) {
  if (is_null(value)) return "NULL";
  if (const auto* number = std::get_if<int64_t>(&value)) return std::to_string(*number);
  return as_text(value);
}

std::string flow_row(const StepResult& result) {
  const std::optional<FlowRow> row = flow_of(result);
  if (!row) return "no flow row";
  return fmt::format("flow row: status {}, version {}", row->status, row->version);
}

std::string finish(const Binds& binds, std::string_view version) {
  const int64_t status = as_int(bound(binds, ":status"));
  return fmt::format("status → {} ({}){}", status, status == kSucceeded ? "applied" : "rejected",
                     version);
}

std::string money(const Binds& binds, const StepResult& result, bool debit) {
  const int64_t amount = as_int(bound(binds, ":amount"));
  if (debit && result.changes == 0) return "insufficient funds: nothing moved";
  return fmt::format("{} {}{}", text_of(bound(binds, debit ? ":from" : ":to")), debit ? "-" : "+",
                     amount);
}

// Statements whose outcome is "did it change a row".
std::string changed(Stmt stmt, const Binds& binds, const StepResult& result, int64_t origin_ms) {
  const bool changed_a_row = result.changes > 0;
  switch (stmt) {
    case Stmt::kClaimFlow:
      return changed_a_row ? "status 1→2: this attempt does the work"
                           : "status is not 1: no change";
    case Stmt::kClaimFlowUnguarded:
      return "status → 2, no precondition checked";
    case Stmt::kClaimVersion: {
      const int64_t version = as_int(bound(binds, ":version"));
      return changed_a_row ? fmt::format("version {}→{}", version, version + 1)
                           : fmt::format("version is no longer {}: no change", version);
    }
    case Stmt::kConsumeToken:
    case Stmt::kConsumeTokenUnchecked:
      return changed_a_row ? "token used" : "token not usable (unknown, used or expired)";
    case Stmt::kAcquireLock:
      if (!changed_a_row) return "lock held by someone else";
      return fmt::format("lock held by {} until {} ms{}", text_of(bound(binds, ":owner")),
                         as_int(bound(binds, ":until")) - origin_ms,
                         result.row && !result.row->empty()
                             ? fmt::format(", fence {}", text_of((*result.row)[0]))
                             : std::string());
    case Stmt::kCheckFence:
      return changed_a_row ? fmt::format("fence {}: the highest the ledger has seen for this lock",
                                         text_of(bound(binds, ":fence")))
                           : fmt::format(
                                 "fence {}: the ledger has seen a higher one; this grant is "
                                 "stale",
                                 text_of(bound(binds, ":fence")));
    case Stmt::kReleaseLock:
      return changed_a_row ? "lock released" : "lock not ours any more: left alone";
    case Stmt::kReleaseLockAnyOwner:
      return changed_a_row ? "lock released, whoever held it" : "no lock to release";
    default:
      return describe_result(stmt, result);
  }
}

}  // namespace

std::string describe_values_on(Engine engine, Stmt stmt, const Binds& binds,
                               const StepResult& result, int64_t origin_ms) {
  if (!engine_traits(engine).begin_takes_write_lock && stmt == Stmt::kBeginImmediate && result.ok())
    return "transaction begins";
  return describe_values(stmt, binds, result, origin_ms);
}

std::string describe_values(Stmt stmt, const Binds& binds, const StepResult& result,
                            int64_t origin_ms) {
  if (result.code == StepCode::kConstraint) return "unique key taken: a repeat";
  if (!result.ok()) return describe_result(stmt, result);
  switch (stmt) {
    case Stmt::kSelectFlow:
    case Stmt::kSelectFlowForUpdate:
      return flow_row(result);
    case Stmt::kInsertFlow:
    case Stmt::kInsertFlowIfAbsent:
    case Stmt::kUpsertFlow:
      if (!result.row) return "flow row exists already: a repeat";
      return fmt::format("flow row {} written, status {}, key {}", as_int((*result.row)[0]),
                         text_of(bound(binds, ":status")), text_of(bound(binds, ":biz_seq")));
    case Stmt::kFinishFlow:
      return finish(binds, "");
    case Stmt::kFinishVersion:
      return finish(binds, ", version up by one");
    case Stmt::kFinishVersionRestoring:
      return finish(binds, ", version down by one: back to the value a twin read (A, B, A)");
    case Stmt::kDebit:
      return money(binds, result, true);
    case Stmt::kCredit:
      return money(binds, result, false) + ": money moved";
    case Stmt::kJournalDebit:
    case Stmt::kJournalCredit:
      return fmt::format("journal: {} {} {}", stmt == Stmt::kJournalDebit ? "debit" : "credit",
                         text_of(bound(binds, stmt == Stmt::kJournalDebit ? ":from" : ":to")),
                         as_int(bound(binds, ":amount")));
    case Stmt::kInsertDedup:
      return fmt::format("dedup key {} recorded", text_of(bound(binds, ":key")));
    case Stmt::kCheckLockOwner:
      return result.row && as_int((*result.row)[0]) > 0 ? "the lock is still ours"
                                                        : "the lock is not ours any more";
    case Stmt::kBeginImmediate:
      return "write lock taken";
    case Stmt::kCommit:
      return "committed";
    case Stmt::kRollback:
      return "rolled back";
    default:
      return changed(stmt, binds, result, origin_ms);
  }
}

}  // namespace idemlab
