// `idemlab audit`: the ledger's invariants, checked from the journal.
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/command.h"
#include "cli/errors.h"
#include "core/clock.h"
#include "core/limits.h"
#include "core/quote.h"
#include "db/schema/ledger_file.h"
#include "db/schema/ledger_header.h"
#include "ledger/audit.h"
#include "ledger/ledger.h"
#include "ledger/told_applied.h"
#include "report/answer_view.h"
#include "strategies/strategy.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct AuditOptions {
  std::string db = "idemlab.db";
  int64_t stale_after_ms = AuditSettings{}.stale_after_ms;
  bool json = false;
  std::string answers;  // --answers FILE: what clients were told, one JSON answer a line
};

// The answers --answers names: each line one JSON object, as a one-attempt command prints under
// --json: an answer with source, biz_seq and outcome, or an error object (an attempt cut by a
// failover: exit 75, its request named when the command had one), which told the client nothing
// certain and is kept as outcome "unknown". Blank lines skipped; a usage error names the line.
std::vector<ToldAnswer> read_answers(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw_if_error(Status::usage(fmt::format("--answers {}: cannot read it", in_quotes(path))));
  std::vector<ToldAnswer> answers;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto json = nlohmann::json::parse(line, nullptr, false);
    const bool error = json.is_object() && json.contains("error") && json["error"].is_object();
    const nlohmann::json& fields = error ? json["error"] : json;
    const auto text = [&](const char* key) -> std::string {
      return fields.is_object() && fields.contains(key) && fields[key].is_string() ? fields[key]
                                                                                   : "";
    };
    ToldAnswer answer{text("source"), text("biz_seq"), error ? "unknown" : text("outcome")};
    if (!error && (answer.source.empty() || answer.biz_seq.empty() || answer.outcome.empty()))
      throw_if_error(Status::usage(fmt::format(
          "--answers {}, line {}: expected a JSON answer with source, biz_seq and outcome, or "
          "an error object (as idemlab STRATEGY --json prints one)",
          in_quotes(path), number)));
    answers.push_back(std::move(answer));
  }
  return answers;
}

// What --answers held: how many answers, how many told "applied" (each held against the
// journal), how many told nothing certain (an error: unknown).
struct AnswersRead {
  int64_t read = 0, told_applied = 0, unknown = 0;
};

// told_applied is what check_told_applied() counted.
AnswersRead answers_read(const std::vector<ToldAnswer>& answers, int64_t told_applied) {
  AnswersRead out;
  out.read = static_cast<int64_t>(answers.size());
  out.told_applied = told_applied;
  for (const ToldAnswer& answer : answers) out.unknown += answer.outcome == "unknown";
  return out;
}

std::string answers_text(const AnswersRead& answers) {
  return wrap(fmt::format("answers: {} read; {} told applied, held against the journal; {} "
                          "unknown (an error answer: the client was told nothing certain)",
                          answers.read, answers.told_applied, answers.unknown),
              0);
}

nlohmann::ordered_json findings_json(const std::vector<Violation>& findings) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& finding : findings)
    out.push_back({{"kind", finding.kind},
                   {"source", text_or_null(finding.source)},
                   {"biz_seq", text_or_null(finding.biz_seq)},
                   {"detail", finding.detail}});
  return out;
}

std::string findings_table(std::string_view label, const std::vector<Violation>& findings) {
  TextTable table{{std::string(label), "source", "biz_seq", "detail"}, {}, {}};
  for (const auto& finding : findings)
    table.rows.push_back({finding.kind, finding.source, finding.biz_seq, finding.detail});
  return table.render();
}

// Where the attempts of the strategies that keep tokens or locks kept them.
std::vector<GuardPlace> guard_places(Connection& connection) {
  std::vector<GuardPlace> all, out;
  throw_if_error(list_guard_places(connection, &all));
  for (GuardPlace& place : all) {
    const Strategy* strategy = find_strategy(place.strategy);
    if (strategy && strategy->info().keeps_guards()) out.push_back(std::move(place));
  }
  return out;
}

nlohmann::ordered_json guards_json(const std::vector<GuardPlace>& places) {
  auto out = nlohmann::ordered_json::array();
  for (const GuardPlace& place : places)
    out.push_back({{"place", place.place.empty() ? "ledger" : place.place},
                   {"strategy", place.strategy},
                   {"requests", place.requests}});
  return out;
}

// "tokens and locks lived in: the ledger (token: 1 request); redis:///s (lock-table: 2 ...)".
std::string guards_text(const std::vector<GuardPlace>& places) {
  std::string out;
  for (size_t i = 0; i < places.size(); ++i) {
    const bool new_place = i == 0 || places[i].place != places[i - 1].place;
    if (new_place) {
      if (i > 0) out += "); ";
      out += (places[i].place.empty() ? "the ledger" : places[i].place) + " (";
    } else {
      out += ", ";
    }
    out += fmt::format("{}: {}", places[i].strategy, count_of(places[i].requests, "request"));
  }
  return out.empty() ? "" : wrap("tokens and locks lived in: " + out + ")", 0);
}

// What an audit found: the report, where tokens and locks lived, and what --answers held.
struct AuditFindings {
  AuditReport report;
  std::vector<GuardPlace> places;
  std::optional<AnswersRead> answers;  // with --answers
};

AuditFindings audit_findings(const AuditOptions& options) {
  AuditFindings found;
  AuditReport& report = found.report;
  Connection connection;
  // So is a damaged header that SQLite still reads (a bad write version): writers refuse it.
  // Read before the connection opens the file (db/sqlite/open_files.h).
  const Status header = check_ledger_header(options.db);
  // A file too damaged to open is a finding of the audit, not an error of the command.
  Result<Connection> ledger = open_ledger(options.db, Access::kRead, defaults::kBusyTimeoutMs);
  const Status opened = ledger.status();
  if (opened.is_ok()) connection = std::move(ledger).value();
  if (opened.is_damaged())
    report.violations.push_back({"integrity", "", "", opened.message()});
  else
    throw_if_error(opened);
  if (opened.is_ok()) {
    AuditSettings settings;
    settings.now_ms = WallClock().now_ms();
    settings.stale_after_ms = options.stale_after_ms;
    throw_if_error(audit_ledger(connection, settings, &report));
    if (!connection.damaged()) found.places = guard_places(connection);
    if (!options.answers.empty()) {
      const std::vector<ToldAnswer> told = read_answers(options.answers);
      int64_t checked = 0;
      throw_if_error(check_told_applied(connection, told, &report.violations, &checked));
      found.answers = answers_read(told, checked);
    }
  }
  if (header.is_damaged())
    report.violations.insert(report.violations.begin(), {"integrity", "", "", header.message()});
  return found;
}

void print_audit_json(const AuditFindings& found) {
  const AuditReport& report = found.report;
  nlohmann::ordered_json out{{"ok", report.ok()},
                             {"violations", findings_json(report.violations)},
                             {"warnings", findings_json(report.warnings)},
                             {"requests_applied", report.requests_applied},
                             {"times_money_moved", report.times_money_moved},
                             {"journal_entries", report.journal_entries},
                             {"guards", guards_json(found.places)}};
  if (found.answers)
    out["answers"] = {{"read", found.answers->read},
                      {"told_applied", found.answers->told_applied},
                      {"unknown", found.answers->unknown}};
  print_json(out);
}

void print_audit_text(const AuditFindings& found) {
  const AuditReport& report = found.report;
  if (report.ok())
    fmt::print("{}", wrap(fmt::format(
                              "ok: {} applied, {}; money conserved, every biz_seq "
                              "applied at most once, flows agree with the journal, "
                              "integrity ok",
                              count_of(report.requests_applied, "transfer"),
                              count_of(report.journal_entries, "journal entry", "journal entries")),
                          0));
  else
    fmt::print("{}", findings_table("violation", report.violations));
  if (!report.warnings.empty()) fmt::print("{}", findings_table("warning", report.warnings));
  fmt::print("{}", guards_text(found.places));
  if (found.answers) fmt::print("{}", answers_text(*found.answers));
}

ExitCode run_audit(const AuditOptions& options) {
  const AuditFindings found = audit_findings(options);
  if (options.json)
    print_audit_json(found);
  else
    print_audit_text(found);
  if (found.report.ok()) return ExitCode::kOk;
  fmt::print(stderr, "error: audit found {}\n",
             count_of(static_cast<int64_t>(found.report.violations.size()), "violation"));
  return ExitCode::kAuditFailed;
}

}  // namespace

void register_audit(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<AuditOptions>();
  CLI::App* command = app.add_subcommand(
      "audit", "check money conservation, balances, at-most-once per biz_seq, integrity");
  add_db_option(command, &options->db);
  command
      ->add_option("--stale-after-ms", options->stale_after_ms,
                   "warn about a dedup record with no answer older than this")
      ->check(whole_number(1, limits::kMaxDurationMs))
      ->capture_default_str();
  command->add_option("--answers", options->answers,
                      "also hold the ledger against what clients were told: a file of JSON "
                      "answers, one a line (idemlab STRATEGY --json); an \"applied\" whose money "
                      "the journal never moved is a violation (told_applied_not_in_ledger)");
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_audit(*options); });
}

}  // namespace idemlab
