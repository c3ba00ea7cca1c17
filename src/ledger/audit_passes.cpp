// The audit's two passes: the checks each finds, per request and per account.
#include "ledger/audit_passes.h"

namespace idemlab {

namespace {

void check_request(const RequestEntries& request, JournalFindings* found) {
  if (request.debit_minor != request.credit_minor || request.debits != request.credits)
    found->unbalanced.add(request.source, request.biz_seq,
                          fmt::format("biz_seq {}: debits {}, credits {}",
                                      request_label(request.source, request.biz_seq),
                                      request.debit_minor, request.credit_minor));
  if (request.debits > 1)
    found->applied_twice.add(
        request.source, request.biz_seq,
        fmt::format("biz_seq {} moved money {} times",
                    request_label(request.source, request.biz_seq), request.debits));
}

// Each account's balance against its opening balance plus its journal entries.
Status check_balances(Connection& connection, const JournalTotals& totals, Findings* found) {
  StepResult result = connection.query(
      "SELECT name, balance_minor, opening_balance_minor FROM account ORDER BY name", {},
      [&](const Row& row) {
        const std::string name = as_text(row[0]);
        const auto delta = totals.account_delta.find(name);
        const int64_t journal = delta == totals.account_delta.end() ? 0 : delta->second;
        if (as_int(row[1]) != as_int(row[2]) + journal)
          found->add("", "",
                     fmt::format("account {}: balance {}, opening {} plus journal {}", name,
                                 as_int(row[1]), as_int(row[2]), journal));
      });
  return result.ok() ? Status::ok() : step_error(connection, result);
}

// One request's flow rows against the journal, as the three queries of the same names read them:
// more than one keyed row; a row per applied success with no journal entry (a row with no key
// included: no entry can name it); a row per failure with one.
void check_flow_request(const RequestFlows& request, FlowFindings* found) {
  const std::string label = request.keyed ? request_label(request.source, request.biz_seq) : "";
  if (request.keyed && request.rows > 1)
    found->duplicate.add(request.source, request.biz_seq,
                         fmt::format("biz_seq {} has {} flow rows", label, request.rows));
  for (int64_t row = 0; !request.moved && row < request.applied; ++row)
    found->applied_unbooked.add(
        request.source, request.biz_seq,
        fmt::format("biz_seq {} is marked succeeded but moved no money", label));
  for (int64_t row = 0; request.moved && row < request.failed; ++row)
    found->failed_but_moved.add(request.source, request.biz_seq,
                                fmt::format("biz_seq {} is marked failed but moved money", label));
  found->succeeded_and_moved += request.moved && request.succeeded > 0;
}

}  // namespace

const Findings& JournalFindings::of(std::string_view kind) const {
  return kind == balance.kind() ? balance : kind == unbalanced.kind() ? unbalanced : applied_twice;
}

// The journal's one pass: the per-request checks, the balances, the report's counts, and each
// request handed on to `also` (a simulation's verdicts).
Status check_journal(Connection& connection, const RequestVisitor& also, JournalFindings* found,
                     AuditReport* report) {
  JournalTotals totals;
  Status status = tally_journal(
      connection,
      [&](const RequestEntries& request) {
        check_request(request, found);
        if (also) also(request);
      },
      &totals);
  if (status.is_ok()) status = check_balances(connection, totals, &found->balance);
  if (status.is_damaged()) {
    report->violations.push_back({"integrity", "", "", status.message()});
    return Status::ok();
  }
  report->requests_applied = totals.requests;
  report->times_money_moved = totals.debits;
  report->journal_entries = totals.entries;
  return status;
}

const Findings* FlowFindings::of(std::string_view kind) const {
  return kind == duplicate.kind()          ? &duplicate
         : kind == applied_unbooked.kind() ? &applied_unbooked
         : kind == failed_but_moved.kind() ? &failed_but_moved
                                           : nullptr;
}

Status check_flows(Connection& connection, FlowFindings* found) {
  return tally_flows(connection,
                     [found](const RequestFlows& request) { check_flow_request(request, found); });
}

}  // namespace idemlab
