// `idemlab token issue`: a fresh one-time token for the token strategy.
#include <fmt/format.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>

#include "cli/command.h"
#include "cli/errors.h"
#include "core/limits.h"
#include "db/guard_stores.h"
#include "db/schema/ledger_file.h"
#include "ledger/ledger.h"

namespace idemlab {

namespace {

struct TokenIssueOptions {
  std::string db = "idemlab.db";
  std::string redis;
  int64_t ttl_ms = 60000;
  bool json = false;
};

ExitCode run_token_issue(const TokenIssueOptions& options) {
  // With --redis the token lives there alone; the ledger is not touched.
  std::unique_ptr<GuardStore> guard_store;
  if (!options.redis.empty()) guard_store = value_or_throw(open_guard_store(options.redis));
  Connection ledger;
  if (!guard_store)
    ledger = value_or_throw(open_ledger(options.db, Access::kWrite, defaults::kBusyTimeoutMs));
  StatementRunner& connection = guard_store ? static_cast<StatementRunner&>(*guard_store) : ledger;
  std::random_device entropy;  // tokens only need to be unguessable; this is no simulation
  auto word = [&] { return (uint64_t{entropy()} << 32) | entropy(); };
  WallClock clock;
  IssuedToken token;
  throw_if_error(issue_token(connection, clock, word(), word(), options.ttl_ms, &token));
  if (options.json)
    print_json(
        nlohmann::ordered_json{{"token", token.token}, {"expires_at_ms", token.expires_at_ms}});
  else
    fmt::print("{}\n", token.token);
  return ExitCode::kOk;
}

// CLI11 hands an option `issue` does not have to `token`, the token strategy's transfer command
// (`token issue --read-db URL` would set the transfer's --read-db and be silently ignored):
// refused, naming it. One its environment variable set ($IDEMLAB_DB) is not the user's word.
void refuse_transfer_options(const CLI::App& token) {
  for (const CLI::Option* option : token.get_options()) {
    const std::string& env = option->get_envname();
    if (!env.empty() && std::getenv(env.c_str())) continue;
    if (option->count() > 0 && option->get_name() != "--help")
      throw_if_error(Status::usage(
          fmt::format("token issue takes no {}: that is an option of the token strategy's transfer "
                      "(idemlab token --help); token issue --help lists its own",
                      option->get_name())));
  }
}

}  // namespace

void register_token(CLI::App& app, CommandResult& result) {
  // `token` itself is the token strategy's transfer command (cmd_transfer.cpp); `issue` hangs
  // below it.
  CLI::App* command = app.get_subcommand("token");
  command->require_subcommand(0, 1);
  auto options = std::make_shared<TokenIssueOptions>();
  CLI::App* issue = command->add_subcommand("issue", "store and print a fresh one-time token");
  add_db_option(issue, &options->db);
  add_redis_option(issue, &options->redis);
  issue->add_option("--ttl-ms", options->ttl_ms, "how long the token stays valid")
      ->check(whole_number(1, limits::kMaxDurationMs))
      ->capture_default_str();
  add_json_flag(issue, &options->json);
  issue->callback([command, options, &result] {
    refuse_transfer_options(*command);
    result.exit_code = run_token_issue(*options);
  });
}

}  // namespace idemlab
