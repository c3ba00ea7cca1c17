// What clients were told, held against the ledger: a request a client was told was applied,
// while the journal holds no transfer for it. On one server that cannot happen; after a
// failover under asynchronous replication it does: the primary applied and answered, and the
// standby that took its place never received the commit.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "db/connection.h"
#include "ledger/audit.h"

namespace idemlab {

struct ToldAnswer {
  std::string source;
  std::string biz_seq;
  std::string outcome;  // as the answer said it: "applied", "rejected", "timeout", ...
};

// Adds a told_applied_not_in_ledger violation for each answer "applied" whose request moved no
// money in the ledger (at most kMaxViolationsPerCheck rows; `checked` counts those asked).
Status check_told_applied(Connection& connection, const std::vector<ToldAnswer>& answers,
                          std::vector<Violation>* out, int64_t* checked);

}  // namespace idemlab
