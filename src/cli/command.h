// The command-line layer: one file per command, each with an options struct, a register_<verb>
// that adds it to CLI11, and a run_<verb> that calls the core and prints a view. The table of
// commands is in commands.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>

#include "core/exit_code.h"
#include "strategies/strategy.h"

namespace idemlab {

// Where a command's callback leaves its exit code for main().
struct CommandResult {
  ExitCode exit_code = ExitCode::kOk;
};

// The groups --help lists the commands in.
enum class CommandGroup : uint8_t {
  kLedger,      // a ledger and what it holds
  kOneAttempt,  // one attempt of a strategy, per process
  kTransports,  // the transfer over HTTP and a queue
  kSimulator,   // the deterministic simulator
  kClassroom,   // explanations, lessons, the report
  kShell,       // for the shell itself
};
std::string_view command_group_name(CommandGroup group);

struct CommandEntry {
  const char* name;     // the subcommand, or a group of them ("<strategy>")
  const char* summary;  // one line
  void (*register_command)(CLI::App& app, CommandResult& result);
  CommandGroup group;
  ExitCodes exits;                   // the codes it can give, as its --help lists them
  bool needs_every_command = false;  // it reads the whole tree (completion, manual)
  const char* ok_means = "";         // what 0 means here, when not "applied, or replayed"
};
std::span<const CommandEntry> command_table();

// The command a command line names: its first word that is a command's name (global options
// and their values come before it); "" when it names none, or asks for help or the version
// before naming one.
std::string command_word(int argc, char** argv);
// Registers what `word` needs: its own command (a strategy's, and for "token" its `issue`
// too), so that one attempt does not build every command's options first; every command when
// `word` is "", unknown, or a command that reads them all.
void register_commands(CLI::App& app, CommandResult& result, std::string_view word);

// Options many commands share (shared_options.cpp).
void add_db_option(CLI::App* command, std::string* db);
// Checks a --db value: a SQLite path, or a server URL idemlab can read (a usage error if not).
CLI::Validator ledger_locator();
void add_json_flag(CLI::App* command, bool* json);
// --isolation read-committed|repeatable-read|serializable: how a server runs the transaction
// (default: the server's own default). A SQLite file refuses it.
void add_isolation_option(CLI::App* command, std::string* isolation);
// The level --isolation names for the ledger `db` (kDefault when not given); a usage error
// on a SQLite file, whose transactions are always serializable.
Isolation isolation_option(const std::string& db, const std::string& isolation);
// --redis URL ($IDEMLAB_REDIS): where tokens and locks live instead of the ledger.
void add_redis_option(CLI::App* command, std::string* redis);
// Checks a --redis URL (db/redis_store.h's parse_redis_locator).
CLI::Validator redis_locator();
// --locks URL ($IDEMLAB_LOCKS): a ZooKeeper ensemble keeps the locks; --fence: the ledger
// checks each grant's fence (lock-table).
void add_lock_store_options(CLI::App* command, std::string* locks, bool* fence);
// --redis and --locks both, or --fence without either: usage errors (cli/deployment_options.h).
void check_lock_store_options(const std::string& redis, const std::string& locks, bool fence);
// --locks and --fence on a command whose strategy is chosen at run time: lock-table's only. A
// --locks that came from IDEMLAB_LOCKS is cleared for another strategy: the environment names
// where locks are kept, for the commands that keep one.
void check_locks_strategy(const Strategy& strategy, std::string* locks, bool fence);
// The engine a --db names and the level its connection runs at, for answers: both "" on SQLite.
struct EngineShown {
  std::string engine;     // "postgresql", "mariadb"
  std::string isolation;  // as the server reports it: "read-committed", ...
  std::string node;       // a Galera node's name: "node2"; "" on a lone server
  std::string text() const {
    if (engine.empty()) return "";
    return engine + ", " + isolation + (node.empty() ? "" : ", " + node);
  }
};
EngineShown engine_shown(const Connection& connection);
// --pitfall[=NAME]: a bare --pitfall is the strategy's main pitfall; NAME picks another.
void add_pitfall_option(CLI::App* command, std::optional<std::string>* pitfall);
// The pitfall the option names for the strategy: kNone when it was not given; a usage error
// (naming the strategy's pitfalls) when the strategy has no such one.
Pitfall pitfall_option(const StrategyInfo& info, const std::optional<std::string>& pitfall);
// --source NAME: who sends the request (each source numbers its own requests).
void add_source_option(CLI::App* command, std::string* source);

// Prints one JSON object on standard output, on one line.
void print_json(const nlohmann::ordered_json& value);

void register_init(CLI::App& app, CommandResult& result);
void register_accounts(CLI::App& app, CommandResult& result);
void register_transfers(CLI::App& app, CommandResult& result);
void register_transfer_command(CLI::App& app, CommandResult& result, const Strategy& strategy);
void register_token(CLI::App& app, CommandResult& result);
void register_audit(CLI::App& app, CommandResult& result);
void register_history(CLI::App& app, CommandResult& result);
void register_query(CLI::App& app, CommandResult& result);
void register_topology(CLI::App& app, CommandResult& result);
void register_explain(CLI::App& app, CommandResult& result);
void register_simulate(CLI::App& app, CommandResult& result);
void register_compare(CLI::App& app, CommandResult& result);
void register_explore(CLI::App& app, CommandResult& result);
void register_faults(CLI::App& app, CommandResult& result);
void register_scenarios(CLI::App& app, CommandResult& result);
void register_limit(CLI::App& app, CommandResult& result);
void register_http(CLI::App& app, CommandResult& result);
void register_lesson(CLI::App& app, CommandResult& result);
void register_report(CLI::App& app, CommandResult& result);
void register_completion(CLI::App& app, CommandResult& result);
void register_manual(CLI::App& app, CommandResult& result);
void register_serve(CLI::App& app, CommandResult& result);
void register_publish(CLI::App& app, CommandResult& result);
void register_consume(CLI::App& app, CommandResult& result);

}  // namespace idemlab
