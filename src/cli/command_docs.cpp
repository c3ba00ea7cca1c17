// Reads the CLI11 tree into CliDoc; adds the words an option's values are drawn from.
#include "cli/command_docs.h"

#include <algorithm>
#include <string_view>

#include "attempt/fault.h"
#include "cli/help_format.h"
#include "lessons/lesson.h"
#include "sim/shared/scenario.h"
#include "strategies/pitfall.h"
#include "strategies/strategy.h"

namespace idemlab {

namespace {

// The words between the braces of an IsMember check, as CLI11 shows it ("TEXT:{a,b}").
std::vector<std::string> listed_words(std::string_view type_name) {
  std::vector<std::string> words;
  const size_t open = type_name.find('{');
  const size_t close = type_name.rfind('}');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    return words;
  std::string_view list = type_name.substr(open + 1, close - open - 1);
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view word = list.substr(0, comma);
    while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
    if (!word.empty()) words.emplace_back(word);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return words;
}

// Options whose values come from a registry rather than an IsMember check.
std::vector<std::string> registry_words(std::string_view name) {
  std::vector<std::string> words;
  if (name == "--pitfall") {
    for (Pitfall p = Pitfall::kNoUniqueIndex; p <= Pitfall::kMissingKey;
         p = static_cast<Pitfall>(static_cast<int>(p) + 1))
      words.emplace_back(pitfall_name(p));
  } else if (name == "--scenario" || name == "--scenarios") {
    for (const BuiltinScenario& scenario : builtin_scenarios()) words.emplace_back(scenario.name);
  } else if (name == "--fault") {
    for (const FaultInfo& fault : fault_table()) words.push_back(std::string(fault.name) + ":");
  } else if (name == "lesson") {
    for (const Lesson& lesson : all_lessons()) words.push_back(lesson.name);
  }
  return words;
}

OptionDoc describe_option(const CLI::Option& option) {
  OptionDoc doc;
  doc.positional =
      option.get_positional() && option.get_lnames().empty() && option.get_snames().empty();
  for (const std::string& name : option.get_snames()) doc.names.push_back("-" + name);
  for (const std::string& name : option.get_lnames()) doc.names.push_back("--" + name);
  if (doc.positional) doc.names.push_back(option.get_name(true));
  doc.takes_value = option.get_items_expected_max() > 0;
  doc.value_optional = doc.takes_value && option.get_items_expected_min() == 0;
  const std::string type = option.get_type_name();
  if (doc.takes_value) doc.value_name = option_value_name(&option);
  doc.numeric = doc.takes_value &&
                (type.starts_with("INT") || type.starts_with("UINT") || type.starts_with("FLOAT"));
  doc.description = option.get_description();
  doc.env = option.get_envname();
  doc.values = listed_words(type);
  if (doc.values.empty()) doc.values = registry_words(primary_name(doc));
  return doc;
}

std::vector<OptionDoc> describe_options(const CLI::App& app) {
  std::vector<OptionDoc> options;
  for (const CLI::Option* option : app.get_options())
    if (!option->get_group().empty()) options.push_back(describe_option(*option));  // "": hidden
  std::stable_partition(options.begin(), options.end(),
                        [](const OptionDoc& option) { return !option.positional; });
  return options;
}

bool shown(const CLI::App* command) {
  return !command->get_group().empty();  // "": hidden from --help
}

CommandDoc describe_command(const CLI::App& command, const std::string& prefix) {
  CommandDoc doc;
  doc.name = prefix + command.get_name();
  doc.description = command.get_description();
  doc.options = describe_options(command);
  doc.is_strategy = prefix.empty() && find_strategy(command.get_name()) != nullptr;
  for (const CLI::App* sub : command.get_subcommands(shown))
    doc.commands.push_back(describe_command(*sub, doc.name + " "));
  return doc;
}

}  // namespace

namespace {

void each_nested(const CommandDoc& command, const std::function<void(const CommandDoc&)>& visit) {
  visit(command);
  for (const CommandDoc& sub : command.commands) each_nested(sub, visit);
}

}  // namespace

void each_command(const CliDoc& cli, const std::function<void(const CommandDoc&)>& visit) {
  for (const CommandDoc& command : cli.commands) each_nested(command, visit);
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

std::string primary_name(const OptionDoc& option) {
  for (const std::string& name : option.names)
    if (name.starts_with("--")) return name;
  return option.names.empty() ? "" : option.names.front();
}

CliDoc describe_cli(const CLI::App& app, std::string version) {
  CliDoc doc;
  doc.name = app.get_name();
  doc.description = app.get_description();
  doc.version = std::move(version);
  doc.options = describe_options(app);
  for (const CLI::App* command : app.get_subcommands(shown))
    doc.commands.push_back(describe_command(*command, ""));
  return doc;
}

}  // namespace idemlab
