// The audit's checks, each one SQL query whose rows are violations.
#include "ledger/audit.h"

#include <fmt/format.h>

#include <array>

#include "ledger/journal_tally.h"
#include "ledger/money.h"

namespace idemlab {

namespace {

struct Check {
  const char* kind;
  // Each row: the request it concerns (source, biz_seq, or NULLs), then the values `detail`
  // shows. nullptr: found in the journal's one pass (JournalFindings). The SQL is the subset
  // every engine reads alike; the text is made here, not by the engine's own format function.
  const char* sql;
  const char* detail = "";  // each {} takes the next value of the row
};

// How a request is named in a detail: its biz_seq, with its source in front unless it is the
// default one.
#define REQUEST_LABEL(source, biz_seq) \
  "CASE WHEN " source " = 'api' THEN " biz_seq " ELSE " source " || '/' || " biz_seq " END"
#define LABEL REQUEST_LABEL("source", "biz_seq")
#define SAME_REQUEST(a, b) a ".source = " b ".source AND " a ".biz_seq = " b ".biz_seq"

constexpr std::array kChecks{
    Check{"money_not_conserved",
          "SELECT NULL, NULL, sum(balance_minor), sum(opening_balance_minor) FROM account "
          "HAVING sum(balance_minor) != sum(opening_balance_minor)",
          "balances sum to {}, opening balances to {}"},
    Check{"negative_balance",
          "SELECT NULL, NULL, name, balance_minor FROM account WHERE balance_minor < 0",
          "account {} has balance {}"},
    // These three come from the journal's one pass (journal_tally.h), not a query of their own.
    Check{"balance_disagrees_with_journal", nullptr},
    Check{"unbalanced_entry", nullptr},
    Check{"applied_more_than_once", nullptr},
    Check{"duplicate_flow",
          "SELECT source, biz_seq, " LABEL ", count(*) FROM transfer_flow "
          "WHERE biz_seq IS NOT NULL GROUP BY source, biz_seq HAVING count(*) > 1",
          "biz_seq {} has {} flow rows"},
    Check{"journal_without_flow",
          "SELECT source, biz_seq, " LABEL " FROM (SELECT DISTINCT source, biz_seq FROM journal) j "
          "WHERE NOT EXISTS (SELECT 1 FROM transfer_flow f WHERE " SAME_REQUEST(
              "f", "j") " "
                        "AND f.status = 2)",
          "biz_seq {} moved money but no flow row says it succeeded"},
    Check{"flow_without_journal",
          "SELECT source, biz_seq, " LABEL " FROM transfer_flow f WHERE status = 2 AND "
          "outcome = 'applied' AND NOT EXISTS (SELECT 1 FROM journal j WHERE " SAME_REQUEST(
              "j", "f") ")",
          "biz_seq {} is marked succeeded but moved no money"},
    Check{"rejected_flow_with_journal",
          "SELECT source, biz_seq, " LABEL " FROM transfer_flow f WHERE status = 3 AND EXISTS "
          "(SELECT 1 FROM journal j WHERE " SAME_REQUEST("j", "f") ")",
          "biz_seq {} is marked failed but moved money"},
    Check{"flow_without_key",
          "SELECT source, NULL, count(*), source FROM transfer_flow WHERE biz_seq IS NULL "
          "GROUP BY source",
          "{} flow rows of source {} carry no key: a unique index stops none of their repeats"},
    // From a consumer's delivery log: what a queue did to a request.
    // A request's keys: each message id it was keyed by, and its own biz_seq (a consumer
    // keyed by the request logs no delivery).
    Check{"applied_once_per_message",
          "SELECT k.source, k.biz_seq, " REQUEST_LABEL(
              "k.source", "k.biz_seq") ", count(*) "
                                       "FROM (SELECT source, biz_seq, keyed_by FROM delivery UNION "
                                       "SELECT source, biz_seq, "
                                       "biz_seq FROM delivery) k WHERE EXISTS (SELECT 1 FROM "
                                       "journal j WHERE j.source = "
                                       "k.source AND j.biz_seq = k.keyed_by AND j.side = 'debit') "
                                       "GROUP BY k.source, k.biz_seq HAVING count(*) > 1",
          "request {} moved money under {} keys, once under each: a consumer keyed it by the "
          "message (--key message-id), so the producer's copies went through"},
    Check{"acked_never_applied",
          "SELECT DISTINCT d.source, d.biz_seq, " REQUEST_LABEL(
              "d.source",
              "d.biz_seq") " "
                           "FROM delivery d WHERE d.ack = 'on-receipt' AND NOT EXISTS (SELECT 1 "
                           "FROM delivery e "
                           "JOIN attempt a ON a.source = e.source AND a.biz_seq = e.keyed_by WHERE "
                           "e.source = d.source AND e.biz_seq = d.biz_seq AND a.outcome NOT IN "
                           "('in_progress', "
                           "'timeout', 'busy', 'error'))",
          "request {} was acked on receipt and never answered: the message is gone, and the "
          "money never moved"},
};

// Warnings: leftovers that are not wrong in themselves but cost retries or storage. Each query
// takes :now and :stale_ms.
constexpr std::array kWarnings{
    Check{"expired_lock",
          "SELECT NULL, NULL, name, lock_until_ms, locked_by FROM \"lock\" "
          "WHERE lock_until_ms <= :now",
          "lock {} expired at {} ms and was never released (held by {})"},
    Check{"unanswered_dedup_record",
          "SELECT source, biz_seq, " LABEL ", :now - created_at_ms FROM dedup d "
          "WHERE created_at_ms <= :now - :stale_ms AND NOT EXISTS (SELECT 1 FROM "
          "transfer_flow f WHERE " SAME_REQUEST("f", "d") " AND f.status IN (2, 3))",
          "biz_seq {} has a dedup record {} ms old and no answer: every retry is refused as a "
          "repeat"},
};

// `detail` with each {} replaced by the row's next value, from the third column on.
std::string fill_detail(std::string_view detail, const Row& row) {
  std::string text;
  size_t column = 2;
  for (size_t at = 0; at < detail.size(); ++at) {
    if (detail.compare(at, 2, "{}") == 0 && column < row.size()) {
      const Value& value = row[column++];
      text +=
          std::holds_alternative<int64_t>(value) ? std::to_string(as_int(value)) : as_text(value);
      ++at;
    } else {
      text += detail[at];
    }
  }
  return text;
}

// SQLite's own check comes first: on a damaged file the other checks could fail or mislead, so
// its messages are then the whole report.
bool file_intact(Connection& connection, AuditReport* report) {
  const char* check = engine_traits(connection.engine()).page_check_sql;
  if (!check) return true;  // a server checks its own pages
  StepResult integrity = connection.query(check, {}, [&](const Row& row) {
    if (as_text(row[0]) != "ok")
      report->violations.push_back({"integrity", "", "", as_text(row[0])});
  });
  if (!integrity.ok())
    report->violations.push_back(
        {"integrity", "", "", fmt::format("{}: {}", connection.location(), integrity.error)});
  return report->violations.empty();
}

// Findings of one kind: the first kMaxViolationsPerCheck listed, the rest counted.
class Findings {
 public:
  explicit Findings(const char* kind) : kind_(kind) {}
  void add(std::string source, std::string biz_seq, std::string detail) {
    if (count_++ < kMaxViolationsPerCheck)
      listed_.push_back({kind_, std::move(source), std::move(biz_seq), std::move(detail)});
  }
  void append_to(std::vector<Violation>* out) const {
    out->insert(out->end(), listed_.begin(), listed_.end());
    if (count_ > kMaxViolationsPerCheck)
      out->push_back(
          {kind_, "", "", fmt::format("... and {} more", count_ - kMaxViolationsPerCheck)});
  }
  const char* kind() const { return kind_; }

 private:
  const char* kind_;
  int count_ = 0;
  std::vector<Violation> listed_;
};

// Runs one check's query; its rows go to `out`. A damaged file is an integrity finding.
Status run_check(Connection& connection, const Check& check, const Binds& binds,
                 std::vector<Violation>* out) {
  Findings found(check.kind);
  StepResult result = connection.query(check.sql, binds, [&](const Row& row) {
    found.add(as_text(row[0]), as_text(row[1]), fill_detail(check.detail, row));
  });
  if (result.code == StepCode::kDamaged) {
    out->push_back(
        {"integrity", "", "", fmt::format("{}: {}", connection.location(), result.error)});
    return Status::ok();
  }
  // A link lost mid-audit (a failover) is the server's doing, answered as any lost link is.
  if (result.link_lost()) return step_error(connection, result);
  if (!result.ok())
    return Status::internal(fmt::format("audit check {} failed: {}", check.kind, result.error));
  found.append_to(out);
  return Status::ok();
}

// The checks found in the journal's one pass.
struct JournalFindings {
  Findings balance{"balance_disagrees_with_journal"};
  Findings unbalanced{"unbalanced_entry"};
  Findings applied_twice{"applied_more_than_once"};

  const Findings& of(std::string_view kind) const {
    return kind == balance.kind()      ? balance
           : kind == unbalanced.kind() ? unbalanced
                                       : applied_twice;
  }
};

std::string request_label(const RequestEntries& request) {
  return request.source == "api" ? request.biz_seq : request.source + "/" + request.biz_seq;
}

void check_request(const RequestEntries& request, JournalFindings* found) {
  if (request.debit_minor != request.credit_minor || request.debits != request.credits)
    found->unbalanced.add(request.source, request.biz_seq,
                          fmt::format("biz_seq {}: debits {}, credits {}", request_label(request),
                                      request.debit_minor, request.credit_minor));
  if (request.debits > 1)
    found->applied_twice.add(
        request.source, request.biz_seq,
        fmt::format("biz_seq {} moved money {} times", request_label(request), request.debits));
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

}  // namespace

Status audit_ledger(Connection& connection, const AuditSettings& settings, AuditReport* out) {
  AuditReport report;
  if (settings.check_file && !file_intact(connection, &report)) {
    *out = std::move(report);
    return Status::ok();
  }
  JournalFindings journal;
  RETURN_IF_ERROR(check_journal(connection, settings.on_request, &journal, &report));
  for (const Check& check : kChecks) {
    if (!check.sql) {
      journal.of(check.kind).append_to(&report.violations);
    } else if (Status status = run_check(connection, check, {}, &report.violations);
               !status.is_ok()) {
      return status;
    }
  }
  const Binds binds{{":now", settings.now_ms}, {":stale_ms", settings.stale_after_ms}};
  for (const Check& check : kWarnings)
    RETURN_IF_ERROR(run_check(connection, check, binds, &report.warnings));
  *out = std::move(report);
  return Status::ok();
}

}  // namespace idemlab
