// One pass over the journal through its (source, biz_seq) index: a request's entries arrive
// together, so each is summed, handed on and forgotten.
#include "ledger/journal_tally.h"

namespace idemlab {

namespace {

constexpr const char* kJournalInRequestOrder =
    "SELECT source, biz_seq, account, side = 'debit', amount_minor FROM journal "
    "ORDER BY source, biz_seq";

void add_entry(const Row& row, RequestEntries* request, JournalTotals* totals) {
  const bool debit = as_int(row[3]) != 0;
  const int64_t amount = as_int(row[4]);
  (debit ? request->debit_minor : request->credit_minor) += amount;
  (debit ? request->debits : request->credits) += 1;
  totals->account_delta[as_text(row[2])] += debit ? -amount : amount;
  totals->debits += debit;
  totals->entries += 1;
}

}  // namespace

Status tally_journal(Connection& connection, const RequestVisitor& on_request, JournalTotals* out) {
  JournalTotals totals;
  RequestEntries request;
  bool open = false;
  auto close = [&] {
    if (!open) return;
    totals.requests += 1;
    if (on_request) on_request(request);
  };
  StepResult result = connection.query(kJournalInRequestOrder, {}, [&](const Row& row) {
    std::string source = as_text(row[0]), biz_seq = as_text(row[1]);
    if (!open || source != request.source || biz_seq != request.biz_seq) {
      close();
      request = RequestEntries{std::move(source), std::move(biz_seq)};
      open = true;
    }
    add_entry(row, &request, &totals);
  });
  if (!result.ok()) return step_error(connection, result);
  close();
  *out = std::move(totals);
  return Status::ok();
}

}  // namespace idemlab
