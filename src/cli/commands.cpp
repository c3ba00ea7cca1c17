// The table of commands: each one's group and exit codes, and which of them a command line
// registers.
#include <algorithm>
#include <array>

#include "cli/command.h"

namespace idemlab {

namespace {

using E = ExitCode;
// Every command can end in 0, 1 (a bug) and 2 (bad input); these add what each can also give.
constexpr ExitCodes kReads{E::kOk, E::kInternal, E::kUsage, E::kLedger, E::kRetryable};
constexpr ExitCodes kOneAttempt{E::kOk,           E::kInternal, E::kUsage,
                                E::kRejected,     E::kMismatch, E::kInProgress,
                                E::kTokenRefused, E::kLedger,   E::kRetryable};
constexpr ExitCodes kHttp{E::kOk,       E::kInternal,   E::kUsage,        E::kRejected,
                          E::kMismatch, E::kInProgress, E::kTokenRefused, E::kLedger,
                          E::kNotFound, E::kRetryable};
constexpr ExitCodes kRuns{E::kOk,     E::kInternal,  E::kUsage,      E::kAuditFailed,
                          E::kLedger, E::kRetryable, E::kInterrupted};
constexpr ExitCodes kLists{E::kOk, E::kInternal, E::kUsage};
constexpr const char* kRunOk =
    "the run finished, whatever its rows show (with --fail-on violation: no guarded strategy "
    "broke its promise)";
constexpr const char* kReadOk = "the command did what it was asked";
using G = CommandGroup;

// In the order --help lists them within their groups.
constexpr std::array kCommands{
    CommandEntry{"init",
                 "create a ledger",
                 register_init,
                 G::kLedger,
                 {E::kOk, E::kInternal, E::kUsage, E::kLedger, E::kRetryable}},
    CommandEntry{"accounts", "list balances", register_accounts, G::kLedger, kReads, false,
                 kReadOk},
    CommandEntry{"<strategy>", "one transfer attempt with a strategy", register_transfers,
                 G::kOneAttempt, kOneAttempt},
    CommandEntry{"token", "issue tokens for the token strategy", register_token, G::kOneAttempt,
                 kReads, false, kReadOk},
    CommandEntry{"audit",
                 "check the ledger's invariants",
                 register_audit,
                 G::kLedger,
                 {E::kOk, E::kInternal, E::kUsage, E::kAuditFailed, E::kLedger, E::kRetryable}},
    CommandEntry{"history", "attempts and their answers", register_history, G::kLedger, kReads,
                 false, kReadOk},
    CommandEntry{"query",
                 "a request's state, asked before retrying",
                 register_query,
                 G::kLedger,
                 {E::kOk, E::kInternal, E::kUsage, E::kRejected, E::kInProgress, E::kLedger,
                  E::kNotFound, E::kRetryable}},
    CommandEntry{"topology", "what a URL's servers are to each other; which one a connection uses",
                 register_topology, G::kLedger, kLists, false, kReadOk},
    CommandEntry{"limit",
                 "a payer's limit: set (idempotent) or raise (not)",
                 register_limit,
                 G::kLedger,
                 {E::kOk, E::kInternal, E::kUsage, E::kRejected, E::kLedger, E::kRetryable}},
    CommandEntry{"http", "one HTTP request: GET, PUT, DELETE, POST", register_http, G::kTransports,
                 kHttp},
    CommandEntry{"serve", "the transfer endpoint over HTTP, with Idempotency-Key", register_serve,
                 G::kTransports, kReads, false, kReadOk},
    CommandEntry{"publish", "transfer requests onto a RabbitMQ queue, confirmed", register_publish,
                 G::kTransports, kReads, false, kReadOk},
    CommandEntry{"consume",
                 "a RabbitMQ queue's transfers through a strategy",
                 register_consume,
                 G::kTransports,
                 {E::kOk, E::kInternal, E::kUsage, E::kLedger, E::kDeadLettered, E::kRetryable,
                  E::kInterrupted}},
    CommandEntry{"simulate", "many requests against one strategy, seeded", register_simulate,
                 G::kSimulator, kRuns, false, kRunOk},
    CommandEntry{"compare", "the same schedule against every strategy", register_compare,
                 G::kSimulator, kRuns, false, kRunOk},
    CommandEntry{"explore", "every interleaving of concurrent duplicates", register_explore,
                 G::kSimulator, kRuns, false, kRunOk},
    CommandEntry{"faults", "the faults and their parameters", register_faults, G::kSimulator,
                 kLists, false, "printed"},
    CommandEntry{"scenarios", "the built-in scenarios", register_scenarios, G::kSimulator, kLists,
                 false, "printed"},
    CommandEntry{"explain", "what a strategy does, its SQL and its pitfall", register_explain,
                 G::kClassroom, kLists, false, "printed"},
    CommandEntry{"lesson",
                 "numbered lessons, run for real",
                 register_lesson,
                 G::kClassroom,
                 {E::kOk, E::kInternal, E::kUsage, E::kNotRun, E::kInterrupted}},
    CommandEntry{"report", "one self-contained HTML report", register_report, G::kClassroom, kRuns,
                 false, "the report was written"},
    CommandEntry{"completion", "shell completion for bash, zsh or fish", register_completion,
                 G::kShell, kLists, true, "printed"},
    CommandEntry{"manual", "the manual page, in roff", register_manual, G::kShell, kLists, true,
                 "printed"},
};

}  // namespace

std::span<const CommandEntry> command_table() {
  return kCommands;
}

std::string_view command_group_name(CommandGroup group) {
  switch (group) {
    case CommandGroup::kLedger:
      return "A ledger";
    case CommandGroup::kOneAttempt:
      return "One attempt of a strategy, per process";
    case CommandGroup::kTransports:
      return "Transfers over HTTP and a queue";
    case CommandGroup::kSimulator:
      return "The simulator";
    case CommandGroup::kClassroom:
      return "The classroom";
    case CommandGroup::kShell:
      break;
  }
  return "The shell";
}

namespace {

// What a command's --help ends with: its group in idemlab --help, and the exit codes it can
// give after its own footer; nested commands (token issue) likewise.
void place_command(CLI::App* command, const CommandEntry& entry) {
  command->group(std::string(command_group_name(entry.group)));
  const std::string own = command->get_footer();
  command->footer(own + (own.empty() ? "" : "\n") + exit_code_help(entry.exits, entry.ok_means));
  for (CLI::App* nested : command->get_subcommands({})) place_command(nested, entry);
}

// Places what `entry` registered: its new commands, and the new nested commands it gave a
// command already there (`token issue`, under the token strategy), which CLI11 gave their
// parent's footer.
void register_entry(CLI::App& app, CommandResult& result, const CommandEntry& entry) {
  std::vector<const CLI::App*> known;
  for (const CLI::App* command : app.get_subcommands({})) {
    known.push_back(command);
    for (const CLI::App* nested : command->get_subcommands({})) known.push_back(nested);
  }
  const auto is_new = [&](const CLI::App* c) {
    return std::find(known.begin(), known.end(), c) == known.end();
  };
  entry.register_command(app, result);
  for (CLI::App* command : app.get_subcommands({})) {
    if (is_new(command)) {
      place_command(command, entry);
      continue;
    }
    for (CLI::App* nested : command->get_subcommands({}))
      if (is_new(nested)) place_command(nested->footer(""), entry);
  }
}

}  // namespace

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
    for (const CommandEntry& entry : command_table()) register_entry(app, result, entry);
    return;
  }
  if (strategy) {
    const size_t before = app.get_subcommands({}).size();
    register_transfer_command(app, result, *strategy);
    for (const CommandEntry& entry : command_table())
      if (entry.register_command == register_transfers)
        place_command(app.get_subcommands({})[before], entry);
  }
  if (named) register_entry(app, result, *named);
}

}  // namespace idemlab
