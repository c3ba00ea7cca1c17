// The audit's two passes, each over one table in request order: the journal's (each request's
// entries, each account's balance) and the flows' (each request's rows, and whether the journal
// holds any entry of it). Each finds several checks' violations in one read of its table.
#pragma once

#include <cstdint>
#include <string_view>

#include "ledger/audit_findings.h"
#include "ledger/flow_tally.h"
#include "ledger/journal_tally.h"

namespace idemlab {

// The checks found in the journal's one pass.
struct JournalFindings {
  Findings balance{"balance_disagrees_with_journal"};
  Findings unbalanced{"unbalanced_entry"};
  Findings applied_twice{"applied_more_than_once"};

  const Findings& of(std::string_view kind) const;
};

// The journal's one pass: the per-request checks, the balances, the report's counts, and each
// request handed on to `also` (a simulation's verdicts).
Status check_journal(Connection& connection, const RequestVisitor& also, JournalFindings* found,
                     AuditReport* report);

// The checks found in the flows' one pass, and what journal_without_flow needs to know that it
// has nothing to find: how many requests both moved money and have a row saying they succeeded.
struct FlowFindings {
  Findings duplicate{"duplicate_flow"};
  Findings applied_unbooked{"flow_without_journal"};
  Findings failed_but_moved{"rejected_flow_with_journal"};
  int64_t succeeded_and_moved = 0;

  // nullptr: not a kind this pass finds.
  const Findings* of(std::string_view kind) const;
};

Status check_flows(Connection& connection, FlowFindings* found);

}  // namespace idemlab
