// `idemlab audit`: the ledger's invariants, checked from the journal.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "db/ledger_file.h"
#include "ledger/audit.h"
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
    report.violations.push_back({"integrity", status.message()});
  else
    throw_if_error(status);
  if (report.ok()) throw_if_error(audit_ledger(connection, &report));
  if (options.json) {
    nlohmann::ordered_json out{{"ok", report.ok()},
                               {"violations", nlohmann::ordered_json::array()},
                               {"transfers_applied", report.transfers_applied},
                               {"journal_entries", report.journal_entries}};
    for (const auto& violation : report.violations)
      out["violations"].push_back({{"kind", violation.kind}, {"detail", violation.detail}});
    print_json(out);
  } else if (report.ok()) {
    fmt::print(
        "ok: {} transfers applied, {} journal entries; money conserved, every biz_seq "
        "applied at most once, flows agree with the journal, integrity ok\n",
        report.transfers_applied, report.journal_entries);
  } else {
    TextTable table{{"violation", "detail"}, {}, {}};
    for (const auto& violation : report.violations)
      table.rows.push_back({violation.kind, violation.detail});
    fmt::print("{}", table.render());
  }
  if (report.ok()) return ExitCode::kOk;
  fmt::print(stderr, "error: audit found {} violation{}\n", report.violations.size(),
             report.violations.size() == 1 ? "" : "s");
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
