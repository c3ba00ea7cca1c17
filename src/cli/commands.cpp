// The table of commands, and options every command shares.
#include <fmt/format.h>

#include <array>

#include "cli/command.h"
#include "db/locator.h"
#include "db/redis/redis_store.h"
#include "report/json.h"

namespace idemlab {

std::span<const CommandEntry> command_table() {
  static constexpr std::array kCommands{
      CommandEntry{"init", "create a ledger", register_init},
      CommandEntry{"accounts", "list balances", register_accounts},
      CommandEntry{"<strategy>", "one transfer attempt with a strategy", register_transfers},
      CommandEntry{"token", "issue tokens for the token strategy", register_token},
      CommandEntry{"audit", "check the ledger's invariants", register_audit},
      CommandEntry{"history", "attempts and their answers", register_history},
      CommandEntry{"query", "a request's state, asked before retrying", register_query},
      CommandEntry{"limit", "a payer's limit: set (idempotent) or raise (not)", register_limit},
      CommandEntry{"http", "one HTTP request: GET, PUT, DELETE, POST", register_http},
      CommandEntry{"serve", "the transfer endpoint over HTTP, with Idempotency-Key",
                   register_serve},
      CommandEntry{"publish", "transfer requests onto a RabbitMQ queue, confirmed",
                   register_publish},
      CommandEntry{"consume", "a RabbitMQ queue's transfers through a strategy", register_consume},
      CommandEntry{"explain", "what a strategy does, its SQL and its pitfall", register_explain},
      CommandEntry{"simulate", "many requests against one strategy, seeded", register_simulate},
      CommandEntry{"compare", "the same schedule against every strategy", register_compare},
      CommandEntry{"explore", "every interleaving of concurrent duplicates", register_explore},
      CommandEntry{"faults", "the faults and their parameters", register_faults},
      CommandEntry{"scenarios", "the built-in scenarios", register_scenarios},
      CommandEntry{"lesson", "numbered lessons, run for real", register_lesson},
      CommandEntry{"report", "one self-contained HTML report", register_report},
      CommandEntry{"completion", "shell completion for bash, zsh or fish", register_completion,
                   true},
      CommandEntry{"manual", "the manual page, in roff", register_manual, true},
  };
  return kCommands;
}

std::string command_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--" || word == "-h" || word == "--help" || word == "--version") return "";
    if (find_strategy(word)) return std::string(word);
    for (const CommandEntry& entry : command_table())
      if (entry.name == word) return std::string(word);
  }
  return "";
}

void register_commands(CLI::App& app, CommandResult& result, std::string_view word) {
  const CommandEntry* named = nullptr;
  for (const CommandEntry& entry : command_table())
    if (entry.name == word) named = &entry;
  const Strategy* strategy = word.empty() ? nullptr : find_strategy(word);
  if ((named == nullptr && strategy == nullptr) || (named && named->needs_every_command)) {
    for (const CommandEntry& entry : command_table()) entry.register_command(app, result);
    return;
  }
  if (strategy) register_transfer_command(app, result, *strategy);
  if (named) named->register_command(app, result);
}

// A --db that is a URL is parsed here, before any command runs, so that a typo in a scheme is
// never taken for a file name; the message never shows a password.
CLI::Validator ledger_locator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        Locator locator;
        Status status = parse_locator(text, &locator);
        return status.is_ok() ? "" : status.message();
      },
      "PATH|URL");
}

void add_db_option(CLI::App* command, std::string* db) {
  command
      ->add_option("--db", *db,
                   "where the ledger lives: a SQLite file, or postgresql://... or "
                   "mariadb://... (environment: IDEMLAB_DB)")
      ->envname("IDEMLAB_DB")
      ->check(ledger_locator())
      ->capture_default_str();
}

void add_isolation_option(CLI::App* command, std::string* isolation) {
  command
      ->add_option("--isolation", *isolation,
                   "on a server: read-committed, repeatable-read or serializable (default: "
                   "the server's own)")
      ->check(CLI::IsMember({"read-committed", "repeatable-read", "serializable"}));
}

Isolation isolation_option(const std::string& db, const std::string& isolation) {
  Isolation level = Isolation::kDefault;
  if (isolation.empty()) return level;
  Locator locator;
  throw_if_error(parse_locator(db, &locator));
  if (!is_server(locator.engine))
    throw_if_error(Status::usage(
        "--isolation is for ledgers on a server: a SQLite file has one writer at a time, "
        "always serializable"));
  (void)parse_isolation(isolation, &level);
  return level;
}

EngineShown engine_shown(const Connection& connection) {
  if (!is_server(connection.engine())) return {};
  return {std::string(engine_name(connection.engine())), connection.isolation()};
}

CLI::Validator redis_locator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        RedisLocator locator;
        Status status = parse_redis_locator(text, &locator);
        return status.is_ok() ? "" : status.message();
      },
      "URL");
}

void add_redis_option(CLI::App* command, std::string* redis) {
  command
      ->add_option("--redis", *redis,
                   "keep tokens and locks in Redis (redis:///path/to/socket or "
                   "redis://host:port/N); the ledger stays where --db says")
      ->envname("IDEMLAB_REDIS")
      ->check(redis_locator());
}

std::unique_ptr<GuardStore> open_guard_store(const std::string& redis) {
  if (redis.empty()) return nullptr;
  RedisLocator locator;
  throw_if_error(parse_redis_locator(redis, &locator));
  return value_or_throw(open_redis_store(locator));
}

void add_json_flag(CLI::App* command, bool* json) {
  command->add_flag("--json", *json, "print one JSON object, for scripts");
}

void add_pitfall_option(CLI::App* command, std::optional<std::string>* pitfall) {
  command
      ->add_option("--pitfall", *pitfall,
                   "leave a guard out: a bare --pitfall is the strategy's main pitfall, "
                   "--pitfall=NAME another (see: idemlab explain STRATEGY)")
      ->expected(0, 1)
      ->default_str("");
}

Pitfall pitfall_option(const StrategyInfo& info, const std::optional<std::string>& pitfall) {
  if (!pitfall) return Pitfall::kNone;
  Pitfall out = Pitfall::kNone;
  throw_if_error(resolve_pitfall(info, *pitfall, &out));
  return out;
}

void add_source_option(CLI::App* command, std::string* source) {
  command->add_option("--source", *source, "who sends the request: api, batch, ...")
      ->capture_default_str();
}

void print_json(const nlohmann::ordered_json& value) {
  fmt::print("{}\n", json_text(value));
}

}  // namespace idemlab
