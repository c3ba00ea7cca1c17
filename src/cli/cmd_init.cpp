// `idemlab init`: create a ledger with opening balances.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/status.h"
#include "db/locator.h"
#include "db/schema/ledger_file.h"
#include "ledger/money.h"
#include "ledger/request.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct InitOptions {
  std::string db = "idemlab.db";
  std::vector<std::string> accounts;
  bool force = false;
  bool json = false;
};

const std::vector<std::string> kDefaultAccounts{"alice=1000.00", "bob=1000.00", "carol=1000.00"};

std::vector<OpeningBalance> parse_accounts(const std::vector<std::string>& specs) {
  std::vector<OpeningBalance> accounts;
  for (const std::string& spec : specs) {
    size_t equals = spec.find('=');
    if (equals == std::string::npos)
      throw_if_error(Status::usage(fmt::format("--account {}: expected NAME=AMOUNT", spec)));
    OpeningBalance account{spec.substr(0, equals), 0};
    throw_if_error(validate_account_name(account.account));
    throw_if_error(parse_amount(spec.substr(equals + 1), true, &account.amount_minor));
    accounts.push_back(std::move(account));
  }
  return accounts;
}

ExitCode run_init(const InitOptions& options) {
  auto accounts = parse_accounts(options.accounts.empty() ? kDefaultAccounts : options.accounts);
  throw_if_error(create_ledger(options.db, accounts, options.force));
  if (options.json) {
    nlohmann::ordered_json out{{"db", redact_locator(options.db)},
                               {"accounts", nlohmann::ordered_json::array()}};
    for (const auto& account : accounts)
      out["accounts"].push_back(
          {{"name", account.account}, {"balance_minor", account.amount_minor}});
    print_json(out);
  } else {
    fmt::print("created {} with {}\n", redact_locator(options.db),
               count_of(static_cast<int64_t>(accounts.size()), "account"));
  }
  return ExitCode::kOk;
}

}  // namespace

void register_init(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<InitOptions>();
  CLI::App* command = app.add_subcommand("init", "create a ledger (refuses to overwrite)");
  add_db_option(command, &options->db);
  command->add_option("--account", options->accounts,
                      "NAME=AMOUNT, repeatable (default: alice, bob and carol with 1000.00)");
  command->add_flag("--force", options->force, "replace an existing file");
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_init(*options); });
}

}  // namespace idemlab
