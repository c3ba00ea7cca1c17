// Audit: checks a ledger's invariants from the journal, independently of any strategy.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/limits.h"
#include "db/connection.h"
#include "ledger/journal_tally.h"

namespace idemlab {

struct Violation {
  std::string kind;     // stable snake_case name, e.g. "applied_more_than_once"
  std::string source;   // the request it concerns (source, biz_seq); empty for an account or
  std::string biz_seq;  // the whole file
  std::string detail;   // for people
};

struct AuditReport {
  std::vector<Violation> violations;
  std::vector<Violation> warnings;  // leftovers that cost retries or storage, not wrong
  int64_t requests_applied = 0;     // distinct requests with at least one journal pair
  int64_t times_money_moved = 0;    // journal pairs (debits): more than requests_applied when a
                                    // request moved money twice
  int64_t journal_entries = 0;
  bool ok() const { return violations.empty(); }
};

// The checks, by name: money_not_conserved, negative_balance, balance_disagrees_with_journal,
// unbalanced_entry, applied_more_than_once, duplicate_flow, journal_without_flow,
// flow_without_journal, rejected_flow_with_journal, flow_without_key, integrity; from a
// consumer's delivery log, applied_once_per_message and acked_never_applied. Warnings:
// expired_lock, unanswered_dedup_record (older than stale_after_ms).
// At most `kMaxViolationsPerCheck` rows are listed per check.
using limits::kMaxViolationsPerCheck;

struct AuditSettings {
  // The audit's notion of now: the wall clock for the command, the virtual clock in a simulation.
  int64_t now_ms = 0;
  int64_t stale_after_ms = 60'000;  // a dedup record this old with no answer is a warning
  // SQLite's integrity check first. A simulation's ledger skips it: it was made in this
  // process's memory (db/mem_vfs.h) and was never a file anyone else could damage.
  bool check_file = true;
  // The flows' one pass (ledger/audit_passes.h) where the engine's text is equal as bytes; false:
  // each of its checks by its own query, as on MariaDB (a test sets both the two ways).
  bool flow_pass = true;
  // Sees every request's journal entries, from the audit's own pass over the journal: the
  // verdicts on how often each request moved money come from it.
  RequestVisitor on_request;
};
Status audit_ledger(Connection& connection, const AuditSettings& settings, AuditReport* out);

}  // namespace idemlab
