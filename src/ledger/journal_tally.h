// The journal, tallied in one pass in request order: what each request's entries add up to, and
// what each account's do. The audit's per-request and per-account checks, and every verdict on
// how often a request moved money, read this one pass instead of grouping the journal each.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "db/connection.h"

namespace idemlab {

// One request's journal entries, summed.
struct RequestEntries {
  std::string source;
  std::string biz_seq;
  int64_t debit_minor = 0;
  int64_t credit_minor = 0;
  int64_t debits = 0;   // debit entries: how many times the request moved money
  int64_t credits = 0;  // credit entries
};
using RequestVisitor = std::function<void(const RequestEntries&)>;

struct JournalTotals {
  int64_t requests = 0;  // distinct (source, biz_seq) with an entry
  int64_t debits = 0;
  int64_t entries = 0;
  std::map<std::string, int64_t> account_delta;  // credits minus debits, per account
};

// Calls `on_request` for every request with an entry, in (source, biz_seq) order, holding one
// request at a time (a million requests cost no memory here).
Status tally_journal(Connection& connection, const RequestVisitor& on_request, JournalTotals* out);

}  // namespace idemlab
