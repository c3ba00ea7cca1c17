// The strategy subcommands (`idemlab select-insert ...`, one per strategy): one transfer
// attempt against a ledger file. Registered from the strategy table, so all share one face.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <optional>

#include "attempt/fault_check.h"
#include "attempt/front_door.h"
#include "cli/command.h"
#include "cli/deployment_options.h"
#include "cli/errors.h"
#include "cli/output_file.h"
#include "core/limits.h"
#include "db/schema/ledger_file.h"
#include "ledger/money.h"
#include "report/answer_view.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct TransferOptions {
  const Strategy* strategy = nullptr;
  DeploymentFlags deployment;  // --db, --redis, --locks, --fence, --read-db, --isolation, ...
  std::optional<std::string> biz_seq;
  std::string from;
  std::string to;
  std::string amount;
  std::string source{kDefaultSource};
  bool no_key = false;
  std::optional<std::string> pitfall;
  bool allow_strategy_switch = false;
  std::vector<std::string> faults;
  std::string token;
  int64_t lock_ttl_ms = defaults::kLockTtlMs;
  std::string owner;
  bool unique_index = false;
  std::optional<std::string> trace_sql;
  bool json = false;
};

void require(const std::string& value, std::string_view option) {
  if (value.empty()) throw_if_error(Status::usage(fmt::format("{} is required", option)));
}

// The request through the front door, as every transport's is; only whether each option was
// given at all is the command line's own check.
AttemptSetup make_setup(const TransferOptions& options) {
  require(options.from, "--from");
  require(options.to, "--to");
  require(options.amount, "--amount");
  if (options.strategy->info().needs_token) require(options.token, "--token");
  RequestText text;
  text.source = options.source;
  text.key = options.biz_seq;
  text.from = options.from;
  text.to = options.to;
  text.amount = options.amount;
  text.token = options.token;
  text.key_missing = options.no_key;
  AttemptPolicy policy;
  policy.transport = Transport::kCommandLine;
  policy.strategy = options.strategy;
  policy.pitfall = pitfall_option(options.strategy->info(), options.pitfall);
  policy.allow_strategy_switch = options.allow_strategy_switch;
  policy.lock_ttl_ms = options.lock_ttl_ms;
  policy.owner = options.owner;
  policy.unique_index = options.unique_index;
  policy.fence = options.deployment.fence;
  throw_if_error(parse_faults(options.faults, &policy.faults));
  throw_if_error(
      check_faults(Surface::kOneAttempt, policy.faults, policy.strategy, policy.pitfall));
  return value_or_throw(admit(text, policy));
}

// The answer as one JSON object: on a server, the engine and its isolation level, and on
// PostgreSQL where the WAL stood after the attempt, to read it back from a standby (query
// --read-db URL --read-your-writes LSN), and where its reads went (--read-db).
void print_answer_json(const AttemptReport& report, const AttemptSetup& setup,
                       const EngineShown& engine, const ReadSplit* reads) {
  nlohmann::ordered_json json =
      answer_json(report, setup.request, setup.strategy->info().name, setup.options.pitfall);
  if (!engine.engine.empty()) {
    json["engine"] = engine.engine;
    json["isolation"] = engine.isolation;
    if (!engine.node.empty()) json["node"] = engine.node;
  }
  if (!report.where.guard_node.empty()) json["guard_node"] = report.where.guard_node;
  if (report.answer.outcome == Outcome::kApplied && !report.where.commit_position.empty())
    json["commit_lsn"] = report.where.commit_position;  // a lost answer gives the client nothing
  if (reads) json["reads"] = reads_json(*reads);
  print_json(json);
}

// Each statement run, values filled in, to the --trace-sql file. Written with the C calls,
// which never throw: SQLite calls the sink. A write that fails (a full disk) is found when the
// file is closed, after the attempt has its answer.
void trace_into(std::FILE* file, Links& links, ReadSplit* reads) {
  auto sink = [file](std::string_view sql) {
    std::fwrite(sql.data(), 1, sql.size(), file);
    std::fputs(";\n", file);
  };
  links.ledger.set_trace(sink);
  if (links.guards) links.guards->set_trace(sink);
  if (reads) reads->set_trace(sink);
}

ExitCode run_transfer(const TransferOptions& options) {
  AttemptSetup setup = make_setup(options);
  set_error_request(setup.request.source, setup.request.biz_seq);
  const Deployment deployment = deployment_of(options.deployment, options.strategy);
  const std::string& db = options.deployment.db;
  OutputFile trace(nullptr, std::fclose);
  if (options.trace_sql)
    throw_if_error(open_output_file("--trace-sql", *options.trace_sql, db, &trace));
  Links links = open_checked_links(deployment);
  Connection& connection = links.ledger;
  setup.guard_store = links.guards.get();
  const std::unique_ptr<ReadSplit> reads = read_split_of(links, options.deployment);
  setup.reads = reads.get();
  if (trace) trace_into(trace.get(), links, reads.get());
  WallClock clock;
  AttemptReport report;
  throw_if_error(run_direct_attempt(connection, clock, setup, &report));
  const std::string_view name = options.strategy->info().name;
  const ExitCode code = exit_code_for(report.answer.outcome);
  // On a server, every answer says which engine gave it, and at what isolation level.
  const EngineShown engine = engine_shown(connection);
  if (options.json) print_answer_json(report, setup, engine, reads.get());
  std::string line = answer_text(report, setup.request, name);
  if (!engine.engine.empty()) line += fmt::format(" [{}]", engine.text());
  line += guard_node_text(report.where);
  if (reads) line += reads_text(*reads);
  if (trace) {  // the attempt stands; a trace cut short by a full disk says so, and is retryable
    const Status closed = close_output_file("--trace-sql", *options.trace_sql, &trace);
    const std::string both = fmt::format("{}; the attempt answered {}", closed.message(), line);
    if (!closed.is_ok())
      throw_if_error(closed.reason().empty() ? Status::internal(both)
                                             : Status::unavailable(closed.reason(), both));
  }
  if (code == ExitCode::kOk) {
    if (!options.json) fmt::print("{}\n", line);
  } else {
    fmt::print(stderr, "error: {}\n", line);
  }
  return code;
}

void register_transfer(CLI::App& app, CommandResult& result, const Strategy& strategy) {
  const StrategyInfo& info = strategy.info();
  auto options = std::make_shared<TransferOptions>();
  options->strategy = &strategy;
  CLI::App* command = app.add_subcommand(std::string(info.name), std::string(info.title));
  DeploymentFlags& deployment = options->deployment;
  add_db_option(command, &deployment.db);
  // Checked in run_transfer rather than by CLI11, so that `token issue` can share `token`.
  command->add_option("--biz-seq", options->biz_seq, "the request's unique id (required)");
  command->add_option("--from", options->from, "payer account (required)");
  command->add_option("--to", options->to, "payee account (required)");
  command->add_option("--amount", options->amount, "e.g. 12.34, at most two decimals (required)");
  add_source_option(command, &options->source);
  command->add_flag("--no-key", options->no_key,
                    "send the request without its idempotency key: guards see NULL, the "
                    "journal is still tagged with --biz-seq (refused unless "
                    "--pitfall=missing-key)");
  if (!info.pitfalls.empty()) add_pitfall_option(command, &options->pitfall);
  command->add_flag("--allow-strategy-switch", options->allow_strategy_switch,
                    "serve a biz_seq that another strategy served first (a server that changed "
                    "strategy between releases; see: idemlab explain)");
  command->add_option(
      "--fault", options->faults,
      fault_help(Surface::kOneAttempt) + fmt::format(" (steps: idemlab explain {})", info.name));
  command
      ->add_option("--busy-timeout-ms", deployment.busy_timeout_ms,
                   "how long to wait for the database lock (on a server: a row lock) before "
                   "answering busy (in_progress)")
      ->check(whole_number(0, limits::kMaxDurationMs))
      ->capture_default_str();
  if (info.needs_token)
    command->add_option("--token", options->token, "from: idemlab token issue (required)");
  if (info.keeps_guards()) add_redis_option(command, &deployment.redis);
  if (info.uses_lock_ttl) {
    command->add_option("--lock-ttl-ms", options->lock_ttl_ms, "how long the lock lasts")
        ->check(whole_number(1, limits::kMaxDurationMs))
        ->capture_default_str();
    command->add_option("--owner", options->owner, "lock owner (default: cli-<pid>-1)");
    add_lock_store_options(command, &deployment.locks, &deployment.fence);
  }
  if (info.offers_unique_index)
    command->add_flag("--unique-index", options->unique_index,
                      "insert the flow row under the unique index on (source, biz_seq) too: a "
                      "twin the lock lets through meets a duplicate key and answers as a repeat");
  add_isolation_option(command, &deployment.isolation);
  add_attempt_read_options(command, &deployment);
  command->add_option("--trace-sql", options->trace_sql,
                      "write each SQL statement run, values filled in, to FILE");
  add_json_flag(command, &options->json);
  // One line a paragraph: --help wraps it to the width in force when it prints.
  std::string footer = fmt::format("How it works:\n  {}\n", info.how);
  if (!info.notes.empty()) footer += fmt::format("\nNotes:\n  {}\n", info.notes);
  command->footer(footer);
  command->callback([options, &result, command] {
    if (!command->get_subcommands().empty()) return;  // `token issue` ran instead
    result.exit_code = run_transfer(*options);
  });
}

}  // namespace

void register_transfers(CLI::App& app, CommandResult& result) {
  for (const Strategy* strategy : all_strategies()) register_transfer(app, result, *strategy);
}

void register_transfer_command(CLI::App& app, CommandResult& result, const Strategy& strategy) {
  register_transfer(app, result, strategy);
}

}  // namespace idemlab
