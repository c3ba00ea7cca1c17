// The audit's checks: each one SQL query whose rows are violations, or found in one of the two
// passes over the journal and the flows (ledger/audit_passes.h).
#include "ledger/audit.h"

#include <fmt/format.h>

#include <array>
#include <optional>

#include "ledger/audit_passes.h"
#include "ledger/money.h"

namespace idemlab {

namespace {

// Where a check's violations are found.
enum class Found {
  kByQuery,         // its own query
  kInJournalPass,   // the journal's pass (JournalFindings); it has no query
  kInFlowPass,      // the flows' pass (FlowFindings), or its query where the engine's text is
                    // not equal as bytes (EngineTraits::text_equal_as_bytes)
  kUnlessFlowPass,  // its query, unless the flows' pass shows there is nothing to find
};

struct Check {
  const char* kind;
  // Each row: the request it concerns (source, biz_seq, or NULLs), then the values `detail`
  // shows. The SQL is the subset every engine reads alike; the text is made here, not by the
  // engine's own format function.
  const char* sql;
  const char* detail = "";  // each {} takes the next value of the row
  Found found = Found::kByQuery;
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
    Check{"balance_disagrees_with_journal", nullptr, "", Found::kInJournalPass},
    Check{"unbalanced_entry", nullptr, "", Found::kInJournalPass},
    Check{"applied_more_than_once", nullptr, "", Found::kInJournalPass},
    // The next four set the flows against the journal: on an engine whose text is equal as
    // bytes, the flows' one pass (flow_tally.h) finds the first, third and fourth, and shows
    // when the second has nothing to find: when every request in the journal has a flow row
    // that says it succeeded.
    Check{"duplicate_flow",
          "SELECT source, biz_seq, " LABEL ", count(*) FROM transfer_flow "
          "WHERE biz_seq IS NOT NULL GROUP BY source, biz_seq HAVING count(*) > 1",
          "biz_seq {} has {} flow rows", Found::kInFlowPass},
    Check{"journal_without_flow",
          "SELECT source, biz_seq, " LABEL " FROM (SELECT DISTINCT source, biz_seq FROM journal) j "
          "WHERE NOT EXISTS (SELECT 1 FROM transfer_flow f WHERE " SAME_REQUEST(
              "f", "j") " "
                        "AND f.status = 2)",
          "biz_seq {} moved money but no flow row says it succeeded", Found::kUnlessFlowPass},
    Check{"flow_without_journal",
          "SELECT source, biz_seq, " LABEL " FROM transfer_flow f WHERE status = 2 AND "
          "outcome = 'applied' AND NOT EXISTS (SELECT 1 FROM journal j WHERE " SAME_REQUEST(
              "j", "f") ")",
          "biz_seq {} is marked succeeded but moved no money", Found::kInFlowPass},
    Check{"rejected_flow_with_journal",
          "SELECT source, biz_seq, " LABEL " FROM transfer_flow f WHERE status = 3 AND EXISTS "
          "(SELECT 1 FROM journal j WHERE " SAME_REQUEST("j", "f") ")",
          "biz_seq {} is marked failed but moved money", Found::kInFlowPass},
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

// The flows' one pass, where the engine's text is equal as bytes; else `flows` stays empty and
// the checks it would find run their queries. A damaged file is an integrity finding.
Status pass_over_flows(Connection& connection, const AuditSettings& settings,
                       std::optional<FlowFindings>* flows, AuditReport* report) {
  if (!settings.flow_pass || !engine_traits(connection.engine()).text_equal_as_bytes)
    return Status::ok();
  FlowFindings found;
  const Status status = check_flows(connection, &found);
  if (status.is_damaged()) {
    report->violations.push_back({"integrity", "", "", status.message()});
    return Status::ok();
  }
  RETURN_IF_ERROR(status);
  flows->emplace(std::move(found));
  return Status::ok();
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
  std::optional<FlowFindings> flows;
  RETURN_IF_ERROR(pass_over_flows(connection, settings, &flows, &report));
  for (const Check& check : kChecks) {
    if (check.found == Found::kInJournalPass) {
      journal.of(check.kind).append_to(&report.violations);
    } else if (check.found == Found::kInFlowPass && flows) {
      flows->of(check.kind)->append_to(&report.violations);
    } else if (check.found == Found::kUnlessFlowPass && flows &&
               flows->succeeded_and_moved == report.requests_applied) {
      continue;  // every request that moved money has a row saying it succeeded
    } else {
      RETURN_IF_ERROR(run_check(connection, check, {}, &report.violations));
    }
  }
  const Binds binds{{":now", settings.now_ms}, {":stale_ms", settings.stale_after_ms}};
  for (const Check& check : kWarnings)
    RETURN_IF_ERROR(run_check(connection, check, binds, &report.warnings));
  *out = std::move(report);
  return Status::ok();
}

}  // namespace idemlab
