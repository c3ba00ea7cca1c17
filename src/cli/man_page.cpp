// The manual page: every command, option and exit code, in the order --help shows them. The
// strategy subcommands share one section, since they take the same options.
#include "cli/man_page.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "core/exit_code.h"
#include "lessons/references.h"

namespace idemlab {

namespace {

// Text made safe for roff: backslashes and hyphens escaped, no line starting with a control
// character.
std::string roff(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if (c == ',' || c == '|') {
      out += c;
      out += "\\:";  // a line may break here: a long value list fits an 80-column terminal
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
  return out;
}

std::string option_heading(const OptionDoc& option) {
  std::string names;
  for (const std::string& name : option.names)
    names += fmt::format("{}\\fB{}\\fR", names.empty() ? "" : ", ", roff(name));
  if (option.positional) return fmt::format("\\fI{}\\fR", roff(option.names.front()));
  if (option.takes_value) names += fmt::format(" \\fI{}\\fR", roff(option.value_name));
  return names;
}

std::string option_items(const std::vector<OptionDoc>& options,
                         const std::vector<std::string>& notes = {}) {
  std::string out;
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& note = i < notes.size() ? notes[i] : "";
    out += fmt::format(".TP\n{}\n{}{}\n", option_heading(options[i]), roff(options[i].description),
                       note.empty() ? "" : " " + roff(note));
  }
  return out;
}

std::string command_section(const CommandDoc& command) {
  std::string out =
      fmt::format(".SS \"idemlab {}\"\n{}\n", roff(command.name), roff(command.description));
  out += option_items(command.options);
  for (const CommandDoc& sub : command.commands) out += command_section(sub);
  return out;
}

// Every strategy's options once, each marked with the strategies that alone take it.
std::string strategies_section(const std::vector<CommandDoc>& commands) {
  std::vector<const CommandDoc*> strategies;
  for (const CommandDoc& command : commands)
    if (command.is_strategy) strategies.push_back(&command);
  std::string out = ".SS \"idemlab STRATEGY\"\nOne transfer attempt with a strategy, one of:\n";
  for (const CommandDoc* strategy : strategies)
    out += fmt::format(".TP\n\\fB{}\\fR\n{}\n", roff(strategy->name), roff(strategy->description));
  out += ".PP\nEach takes these options:\n";
  std::vector<OptionDoc> options;
  std::vector<std::string> notes;
  for (const CommandDoc* strategy : strategies)
    for (const OptionDoc& option : strategy->options) {
      auto same = [&](const OptionDoc& o) { return o.names == option.names; };
      if (std::find_if(options.begin(), options.end(), same) != options.end()) continue;
      std::vector<std::string> takers;
      for (const CommandDoc* other : strategies)
        if (std::any_of(other->options.begin(), other->options.end(), same))
          takers.push_back(other->name);
      options.push_back(option);
      notes.push_back(takers.size() == strategies.size()
                          ? ""
                          : fmt::format("(only {})", fmt::join(takers, ", ")));
    }
  out += option_items(options, notes);
  for (const CommandDoc* strategy : strategies)
    for (const CommandDoc& sub : strategy->commands) out += command_section(sub);
  return out;
}

std::string exit_status_section() {
  std::string out = ".SH \"EXIT STATUS\"\n";
  for (const ExitCodeInfo& info : exit_code_table())
    out += fmt::format(".TP\n\\fB{}\\fR ({})\n{}\n", static_cast<int>(info.code), roff(info.name),
                       roff(info.meaning));
  return out;
}

std::string environment_section(const CliDoc& cli) {
  std::vector<std::pair<std::string, std::string>> seen;  // variable, the option it stands for
  for (const CommandDoc& command : cli.commands)
    for (const OptionDoc& option : command.options)
      if (!option.env.empty() && std::none_of(seen.begin(), seen.end(),
                                              [&](const auto& e) { return e.first == option.env; }))
        seen.emplace_back(option.env, primary_name(option));
  std::sort(seen.begin(), seen.end());
  std::string out = ".SH ENVIRONMENT\n";
  for (const auto& [variable, option] : seen)
    out += fmt::format(".TP\n\\fB{}\\fR\nthe default of \\fB{}\\fR wherever a command takes it\n",
                       variable, roff(option));
  out += ".TP\n\\fBNO_COLOR\\fR\nset: no colour unless \\fB\\-\\-color always\\fR\n";
  return out;
}

constexpr std::string_view kDescription =
    "A transfer call can time out, and a timeout is an unknown: the request may have been "
    "lost, or the money moved and only the answer was lost. Clients retry, queues redeliver, "
    "people double-click, so a transfer endpoint must be idempotent. idemlab runs the eight "
    "classic ways to do it, and the pitfalls of each, on a real ledger (accounts, a "
    "transfer-flow table, a double-entry journal): a SQLite file by default, or PostgreSQL or "
    "MariaDB, with tokens and locks in Redis if asked. Every verdict comes from the journal.";

constexpr std::string_view kHalves =
    "It has two halves: one attempt per process (the strategy subcommands, serve, consume), "
    "for shell scripts that retry, race and kill; and a deterministic simulator (simulate, "
    "compare, explore, report) with seeded faults, retrying clients and verdicts. lesson runs "
    "numbered lessons for a classroom.";

// The five articles the lessons and notes cite as 000 to 004.
std::string references_section() {
  std::string out =
      ".SH REFERENCES\nThe lessons, the notes and explain cite five articles by number and "
      "section (\\(lq004 \\(sc5.8\\(rq); neither a clone nor the package holds them.\n";
  for (const Reference& ref : references())
    out += fmt::format(".TP\n\\fB{}\\fR\n{}\n", ref.number, roff(reference_text(ref)));
  return out;
}

}  // namespace

std::string man_page(const CliDoc& cli) {
  std::string out =
      fmt::format(".TH IDEMLAB 1 \"\" \"idemlab {}\" \"User Commands\"\n", roff(cli.version));
  out += ".ad l\n.nh\n";  // ragged right, no hyphens: a command or option is never split
  out += fmt::format(".SH NAME\nidemlab \\- {}\n",
                     roff(cli.description.substr(cli.description.find(": ") + 2)));
  out += ".SH SYNOPSIS\n.B idemlab\n[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR]\n";
  out += fmt::format(".SH DESCRIPTION\n{}\n.PP\n{}\n", roff(kDescription), roff(kHalves));
  out += ".SH \"GLOBAL OPTIONS\"\n" + option_items(cli.options);
  out += ".SH COMMANDS\n";
  bool strategies_done = false;
  for (const CommandDoc& command : cli.commands) {
    if (!command.is_strategy) {
      out += command_section(command);
    } else if (!strategies_done) {
      out += strategies_section(cli.commands);
      strategies_done = true;
    }
  }
  out += exit_status_section();
  out += environment_section(cli);
  out += references_section();
  out +=
      ".SH \"SEE ALSO\"\n\\fBsqlite3\\fR(1), \\fBpsql\\fR(1), \\fBredis\\-cli\\fR(1), "
      "\\fBcurl\\fR(1)\n";
  return out;
}

}  // namespace idemlab
