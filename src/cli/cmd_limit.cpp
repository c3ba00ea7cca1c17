// `idemlab limit`: read or change a payer's per-transfer limit. --set writes it absolutely
// (naturally idempotent), --raise adds to it (a retry adds again), --remove deletes it.
#include <fmt/format.h>

#include "attempt/fault_check.h"
#include "attempt/wire_faults.h"
#include "cli/command.h"
#include "db/schema/ledger_file.h"
#include "ledger/account_limit.h"
#include "ledger/money.h"
#include "ledger/request.h"
#include "report/answer_view.h"

namespace idemlab {

namespace {

struct LimitOptions {
  std::string db = "idemlab.db";
  std::string account;
  std::optional<std::string> set;
  std::optional<std::string> raise;
  bool remove = false;
  std::vector<std::string> faults;  // request-lost | response-lost
  bool json = false;
};

std::string limit_text(const std::optional<int64_t>& limit) {
  return limit ? format_amount(*limit) : "none";
}

nlohmann::ordered_json limit_value(const std::optional<int64_t>& limit) {
  return limit ? nlohmann::ordered_json(*limit) : nlohmann::ordered_json(nullptr);
}

const char* change_name(const LimitOptions& options) {
  if (options.set) return "set";
  if (options.raise) return "raise";
  if (options.remove) return "remove";
  return "read";
}

struct Heard {
  std::string outcome = "applied";
  std::string reason;
  ExitCode code = ExitCode::kOk;
};

// What the client hears.
Heard heard(const LimitOptions& options, const WireFaults& wire, const LimitResult& result) {
  if (!result.account_found) return {"rejected", "unknown_account", ExitCode::kRejected};
  if (options.raise && !result.before_minor) return {"rejected", "no_limit", ExitCode::kRejected};
  if (wire.response_lost) return {"timeout", "response_lost", ExitCode::kRetryable};
  return {};
}

std::string heard_text(const LimitOptions& options, const LimitResult& result, const Heard& what) {
  if (what.code == ExitCode::kRetryable)
    return "timeout: no answer (response-lost); the change may or may not have happened";
  if (!what.reason.empty()) return fmt::format("rejected: {} ({})", options.account, what.reason);
  if (std::string_view(change_name(options)) == "read")
    return fmt::format("limit: {} {}", options.account, limit_text(result.after_minor));
  return fmt::format("limit: {} {} (was {}){}", options.account, limit_text(result.after_minor),
                     limit_text(result.before_minor),
                     result.changed() || !options.set ? "" : ": unchanged");
}

ExitCode report(const LimitOptions& options, const WireFaults& wire, const LimitResult& result) {
  const Heard what = heard(options, wire, result);
  if (options.json)
    print_json({{"account", options.account},
                {"change", change_name(options)},
                {"outcome", what.outcome},
                {"reason", text_or_null(what.reason)},
                {"limit_minor", limit_value(result.after_minor)},
                {"was_minor", limit_value(result.before_minor)}});
  const std::string line = heard_text(options, result, what);
  if (what.code != ExitCode::kOk)
    fmt::print(stderr, "error: {}\n", line);
  else if (!options.json)
    fmt::print("{}\n", line);
  return what.code;
}

ExitCode run_limit(const LimitOptions& options) {
  throw_if_error(validate_account_name(options.account));
  if (int(options.set.has_value()) + int(options.raise.has_value()) + int(options.remove) > 1)
    throw_if_error(Status::usage("give one of --set, --raise and --remove"));
  int64_t amount = 0;
  if (options.set || options.raise)
    throw_if_error(parse_amount(options.set ? *options.set : *options.raise, false, &amount));
  std::vector<FaultSpec> faults;
  throw_if_error(parse_faults(options.faults, &faults));
  throw_if_error(check_faults(Surface::kLimit, faults, nullptr, Pitfall::kNone));
  const WireFaults wire = wire_faults(faults);
  const bool changes = options.set || options.raise || options.remove;
  if (changes && wire.request_lost) {
    fmt::print(stderr, "error: timeout: no answer (request-lost); nothing was changed\n");
    return ExitCode::kRetryable;
  }
  Connection connection = value_or_throw(
      open_ledger(options.db, changes ? Access::kWrite : Access::kRead, defaults::kBusyTimeoutMs));
  LimitResult result;
  WallClock clock;
  const LimitChange change = options.set     ? LimitChange::kSet
                             : options.raise ? LimitChange::kRaise
                                             : LimitChange::kRemove;
  throw_if_error(changes ? change_limit(connection, clock, change, options.account, amount, &result)
                         : read_limit(connection, options.account, &result));
  return report(options, wire, result);
}

}  // namespace

void register_limit(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<LimitOptions>();
  CLI::App* command =
      app.add_subcommand("limit", "a payer's per-transfer limit: set (idempotent) or raise (not)");
  add_db_option(command, &options->db);
  command->add_option("--account", options->account, "the payer's account (required)")->required();
  command->add_option("--set", options->set, "make the limit AMOUNT: a repeat changes nothing");
  command->add_option("--raise", options->raise, "add AMOUNT to the limit: a repeat adds again");
  command->add_flag("--remove", options->remove, "remove the limit: a repeat finds none");
  command->add_option("--fault", options->faults, fault_help(Surface::kLimit));
  add_json_flag(command, &options->json);
  command->footer(
      "A transfer above the payer's limit is rejected (over_limit) before any guard runs.\n"
      "Without a change option, prints the limit.");
  command->callback([options, &result] { result.exit_code = run_limit(*options); });
}

}  // namespace idemlab
