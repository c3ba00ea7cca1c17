// What the man page and the shell completions are made of, read from the command definitions
// themselves (CLI11's tree), so that neither can drift from --help.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace idemlab {

struct OptionDoc {
  std::vector<std::string> names;  // "-o", "--out"; a positional: its name, e.g. "strategy"
  bool positional = false;
  bool takes_value = false;     // false: a flag
  bool value_optional = false;  // --pitfall or --pitfall=NAME
  bool numeric = false;         // a number: nothing to complete
  std::string value_name;       // e.g. "PATH|URL", "N", as --help shows it
  std::string description;
  std::string env;                  // its environment variable, if any
  std::vector<std::string> values;  // the words a completion offers ("" list: any, files)
};

struct CommandDoc {
  std::string name;  // "init"; a nested one: "token issue"
  std::string description;
  std::vector<OptionDoc> options;    // in --help's order, positionals last
  std::vector<CommandDoc> commands;  // nested subcommands (token issue)
  bool is_strategy = false;          // one of the strategy subcommands
};

struct CliDoc {
  std::string name;  // "idemlab"
  std::string description;
  std::string version;
  std::vector<OptionDoc> options;  // the global ones (--width, --color, --help, --version)
  std::vector<CommandDoc> commands;
};

CliDoc describe_cli(const CLI::App& app, std::string version);

// Calls `visit` with every command, nested ones after their parent.
void each_command(const CliDoc& cli, const std::function<void(const CommandDoc&)>& visit);

// Words joined by spaces.
std::string joined(const std::vector<std::string>& words);

// The option's long name, else its first: what a completion and a man page lead with.
std::string primary_name(const OptionDoc& option);

}  // namespace idemlab
