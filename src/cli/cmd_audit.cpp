// `idemlab audit`: the ledger's invariants, checked from the journal.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "db/ledger_file.h"
#include "ledger/audit.h"
#include "report/answer_view.h"
#include "report/text.h"

namespace idemlab {

namespace {

struct AuditOptions {
  std::string db = "idemlab.db";
  bool json = false;
};

ExitCode run_audit(const AuditOptions& options) {
  Connection connection;
  AuditReport report;
  // A file too damaged to open is a finding of the audit, not an error of the command.
  if (Status status = open_ledger(options.db, Access::kRead, 5000, &connection);
      status.is_damaged())
    report.violations.push_back({"integrity", "", status.message()});
  else
    throw_if_error(status);
  if (report.ok()) throw_if_error(audit_ledger(connection, &report));
  if (options.json) {
    nlohmann::ordered_json out{{"ok", report.ok()},
                               {"violations", nlohmann::ordered_json::array()},
                               {"requests_applied", report.requests_applied},
                               {"times_money_moved", report.times_money_moved},
                               {"journal_entries", report.journal_entries}};
    for (const auto& violation : report.violations)
      out["violations"].push_back({{"kind", violation.kind},
                                   {"biz_seq", text_or_null(violation.biz_seq)},
                                   {"detail", violation.detail}});
    print_json(out);
  } else if (report.ok()) {
    fmt::print(
        "ok: {} applied, {}; money conserved, every biz_seq applied at most once, flows agree "
        "with the journal, integrity ok\n",
        count_of(report.requests_applied, "transfer"),
        count_of(report.journal_entries, "journal entry", "journal entries"));
  } else {
    TextTable table{{"violation", "biz_seq", "detail"}, {}, {}};
    for (const auto& violation : report.violations)
      table.rows.push_back({violation.kind, violation.biz_seq, violation.detail});
    fmt::print("{}", table.render());
  }
  if (report.ok()) return ExitCode::kOk;
  fmt::print(stderr, "error: audit found {}\n",
             count_of(static_cast<int64_t>(report.violations.size()), "violation"));
  return ExitCode::kAuditFailed;
}

}  // namespace

void register_audit(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<AuditOptions>();
  CLI::App* command = app.add_subcommand(
      "audit", "check money conservation, balances, at-most-once per biz_seq, integrity");
  add_db_option(command, &options->db);
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_audit(*options); });
}

}  // namespace idemlab
