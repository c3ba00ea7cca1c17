// The zsh completion: one _arguments spec per command, the commands described.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/completions.h"

namespace idemlab {

namespace {

// A description for a spec: its first clause, with the characters _arguments reads escaped.
std::string brief(std::string_view text) {
  constexpr size_t kMost = 72;
  for (const std::string_view end : {": ", "; ", " ("}) text = text.substr(0, text.find(end));
  if (text.size() > kMost) text = text.substr(0, kMost);
  std::string out;
  for (const char c : text) {
    if (c == '[' || c == ']' || c == ':' || c == '\\') out += '\\';
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out;
}

std::string action(const OptionDoc& option) {
  if (option.numeric) return " ";
  if (option.values.empty()) return "_files";
  return fmt::format("({})", joined(option.values));
}

std::string spec(const OptionDoc& option) {
  if (option.positional) return fmt::format("'*:{}:{}'", primary_name(option), action(option));
  const std::string suffix = option.value_optional ? "=-" : "";
  std::string out = option.names.size() == 1 ? fmt::format("'{}{}", option.names.front(), suffix)
                                             : fmt::format("'({})'{{{}}}'", joined(option.names),
                                                           fmt::join(option.names, ","));
  out += fmt::format("[{}]", brief(option.description));
  if (option.takes_value)
    out += fmt::format(":{}{}:{}", option.value_optional ? ":" : "", brief(option.value_name),
                       action(option));
  return out + "'";
}

// `_arguments FLAGS` and a spec per option, then `extra`.
std::string arguments(std::string_view flags, const std::vector<OptionDoc>& options,
                      const std::string& extra) {
  std::string out = fmt::format("_arguments {}", flags);
  for (const OptionDoc& option : options) out += " \\\n        " + spec(option);
  return out + extra;
}

std::string command_case(const CommandDoc& command) {
  const std::string name = command.name.substr(command.name.rfind(' ') + 1);
  if (command.commands.empty())
    return fmt::format("    ({}) {} ;;\n", name, arguments("-s", command.options, ""));
  std::string nested, names;
  for (const CommandDoc& sub : command.commands) {
    const std::string sub_name = sub.name.substr(sub.name.rfind(' ') + 1);
    names += (names.empty() ? "" : " ") + sub_name;
    nested += fmt::format("      if [[ ${{words[2]}} == {} ]]; then {}; return; fi\n", sub_name,
                          arguments("-s", sub.options, ""));
  }
  return fmt::format(
      "    ({})\n{}      {} ;;\n", name, nested,
      arguments("-s", command.options, fmt::format(" \\\n        '1:command:({})'", names)));
}

}  // namespace

std::string zsh_completion(const CliDoc& cli) {
  std::string described, cases;
  for (const CommandDoc& command : cli.commands) {
    described += fmt::format("    '{}:{}'\n", command.name, brief(command.description));
    cases += command_case(command);
  }
  return fmt::format(
      "#compdef idemlab\n"
      "# zsh completion for idemlab {}, generated from its command definitions by\n"
      "# `idemlab completion zsh`.\n"
      "_idemlab() {{\n"
      "  local curcontext=$curcontext state line\n"
      "  local -a commands=(\n{}  )\n"
      "  {} \\\n        '1: :->command' '*:: :->args'\n"
      "  case $state in\n"
      "  command) _describe -t commands 'idemlab command' commands ;;\n"
      "  args)\n    case $words[1] in\n{}    esac ;;\n  esac\n}}\n"
      "_idemlab \"$@\"\n",
      cli.version, described, arguments("-C", cli.options, ""), cases);
}

}  // namespace idemlab
