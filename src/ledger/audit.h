// Audit: checks a ledger's invariants from the journal, independently of any strategy.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/connection.h"

namespace idemlab {

struct Violation {
  std::string kind;     // stable snake_case name, e.g. "applied_more_than_once"
  std::string biz_seq;  // the request it concerns; empty for an account or the whole file
  std::string detail;   // for people
};

struct AuditReport {
  std::vector<Violation> violations;
  int64_t requests_applied = 0;   // distinct biz_seqs with at least one journal pair
  int64_t times_money_moved = 0;  // journal pairs (debits): more than requests_applied when a
                                  // request moved money twice
  int64_t journal_entries = 0;
  bool ok() const { return violations.empty(); }
};

// The checks, by name: money_not_conserved, negative_balance, balance_disagrees_with_journal,
// unbalanced_entry, applied_more_than_once, duplicate_flow, journal_without_flow,
// flow_without_journal, rejected_flow_with_journal, stuck_dedup_record, integrity.
// At most `kMaxViolationsPerCheck` rows are listed per check.
constexpr int kMaxViolationsPerCheck = 100;
Status audit_ledger(Connection& connection, AuditReport* out);

}  // namespace idemlab
