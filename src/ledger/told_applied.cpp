// What clients were told, held against the ledger.
#include "ledger/told_applied.h"

#include <fmt/format.h>

namespace idemlab {

Status check_told_applied(Connection& connection, const std::vector<ToldAnswer>& answers,
                          std::vector<Violation>* out, int64_t* checked) {
  *checked = 0;
  size_t listed = 0;
  for (const ToldAnswer& answer : answers) {
    if (answer.outcome != "applied") continue;
    ++*checked;
    int64_t moved = 0;
    StepResult result = connection.query(
        "SELECT COUNT(*) FROM journal WHERE source = :source AND biz_seq = :biz_seq AND "
        "side = 'debit'",
        {{":source", answer.source}, {":biz_seq", answer.biz_seq}},
        [&](const Row& row) { moved = as_int(row[0]); });
    if (!result.ok()) return step_error(connection, result);
    if (moved > 0 || listed >= static_cast<size_t>(kMaxViolationsPerCheck)) continue;
    ++listed;
    out->push_back({"told_applied_not_in_ledger", answer.source, answer.biz_seq,
                    fmt::format("a client was told {} was applied; the journal has no transfer "
                                "for it (lost at a failover?)",
                                answer.biz_seq)});
  }
  return Status::ok();
}

}  // namespace idemlab
