// `idemlab accounts`: balances.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/limits.h"
#include "db/schema/ledger_file.h"
#include "ledger/ledger.h"
#include "ledger/money.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct AccountsOptions {
  std::string db = "idemlab.db";
  bool json = false;
};

ExitCode run_accounts(const AccountsOptions& options) {
  Connection connection =
      value_or_throw(open_ledger(options.db, Access::kRead, defaults::kBusyTimeoutMs));
  std::vector<AccountBalance> accounts;
  throw_if_error(list_accounts(connection, &accounts));
  if (options.json) {
    nlohmann::ordered_json out{{"accounts", nlohmann::ordered_json::array()}};
    for (const auto& account : accounts)
      out["accounts"].push_back({{"name", account.name},
                                 {"balance_minor", account.balance_minor},
                                 {"opening_balance_minor", account.opening_balance_minor}});
    print_json(out);
    return ExitCode::kOk;
  }
  TextTable table{{"account", "balance", "opening"}, {false, true, true}, {}};
  for (const auto& account : accounts)
    table.rows.push_back({account.name, format_amount(account.balance_minor),
                          format_amount(account.opening_balance_minor)});
  fmt::print("{}", table.render());
  return ExitCode::kOk;
}

}  // namespace

void register_accounts(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<AccountsOptions>();
  CLI::App* command = app.add_subcommand("accounts", "list balances");
  add_db_option(command, &options->db);
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_accounts(*options); });
}

}  // namespace idemlab
