// The fish completion: one `complete` line per command and per option, each under the
// condition that its command was seen.
#include <fmt/format.h>

#include "cli/completions.h"

namespace idemlab {

namespace {

std::string fish_quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

// What a line for `option` adds after its condition.
std::string option_line(const OptionDoc& option) {
  std::string out;
  if (option.positional) {
    out = fmt::format(" -a {}", fish_quoted(joined(option.values)));
  } else {
    for (const std::string& name : option.names)
      out += name.starts_with("--") ? " -l " + name.substr(2) : " -s " + name.substr(1);
    if (option.takes_value)
      out += !option.values.empty() ? " -x -a " + fish_quoted(joined(option.values))
             : option.numeric       ? " -x"
                                    : " -r -F";
  }
  return out + " -d " + fish_quoted(option.description.substr(0, option.description.find(": ")));
}

// Seen `command` (and, for a nested one, its parent), and none of its own subcommands.
std::string condition(const CommandDoc& command) {
  std::string out;
  size_t from = 0;
  for (size_t space = command.name.find(' ');; space = command.name.find(' ', from)) {
    out += fmt::format("{}__fish_seen_subcommand_from {}", out.empty() ? "" : "; and ",
                       command.name.substr(from, space - from));
    if (space == std::string::npos) break;
    from = space + 1;
  }
  for (const CommandDoc& sub : command.commands)
    out += "; and not __fish_seen_subcommand_from " + sub.name.substr(sub.name.rfind(' ') + 1);
  return fish_quoted(out);
}

std::string command_lines(const CommandDoc& command) {
  std::string out;
  const std::string when = condition(command);
  for (const OptionDoc& option : command.options)
    if (!option.positional || !option.values.empty())
      out += fmt::format("complete -c idemlab -n {}{}\n", when, option_line(option));
  for (const CommandDoc& sub : command.commands)
    out += fmt::format("complete -c idemlab -n {} -a {} -d {}\n", when,
                       sub.name.substr(sub.name.rfind(' ') + 1), fish_quoted(sub.description));
  return out;
}

}  // namespace

std::string fish_completion(const CliDoc& cli) {
  std::string out = fmt::format(
      "# fish completion for idemlab {}, generated from its command definitions by\n"
      "# `idemlab completion fish`.\ncomplete -c idemlab -f\n",
      cli.version);
  for (const OptionDoc& option : cli.options)
    out += "complete -c idemlab -n __fish_use_subcommand" + option_line(option) + "\n";
  for (const CommandDoc& command : cli.commands)
    out += fmt::format("complete -c idemlab -n __fish_use_subcommand -a {} -d {}\n", command.name,
                       fish_quoted(command.description));
  each_command(cli, [&](const CommandDoc& command) { out += command_lines(command); });
  return out;
}

}  // namespace idemlab
