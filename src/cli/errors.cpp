// Error reporting and the command-line checks CLI11 does not make.
#include "cli/errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <system_error>

#include "core/exit_code.h"
#include "core/interrupt.h"
#include "core/parse.h"
#include "report/json.h"
#include "term/text.h"

namespace idemlab {

namespace {

void collect_flags(const CLI::App& app, std::set<std::string>* flags) {
  for (const CLI::Option* option : app.get_options())
    if (option->get_expected_max() == 0)
      for (const std::string& name : option->get_lnames()) flags->insert(name);
  for (const CLI::App* command : app.get_subcommands({})) collect_flags(*command, flags);
}

}  // namespace

bool wants_json(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg == "--json" || arg == "--format=json") return true;
    if (arg == "--format" && i + 1 < argc && std::string_view(argv[i + 1]) == "json") return true;
  }
  return false;
}

namespace {

// The commands argv names, outermost first: idemlab, then e.g. token, then issue. Options
// may come before a command (idemlab --width 100 simulate ...): each word is looked up among
// the subcommands of the last command found.
std::vector<CLI::App*> command_chain(CLI::App& app, int argc, char** argv) {
  std::vector<CLI::App*> chain{&app};
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") break;
    for (CLI::App* command : chain.back()->get_subcommands({}))
      if (command->get_name() == argv[i]) {
        chain.push_back(command);
        break;
      }
  }
  return chain;
}

// An unknown --option is named before anything else CLI11 would say (a required option
// missing, a value out of range): it is most often the cause.
Status check_long_options(CLI::App& app, int argc, char** argv) {
  const std::vector<CLI::App*> chain = command_chain(app, argc, argv);
  std::string path = "idemlab";
  for (size_t i = 1; i < chain.size(); ++i) path += " " + chain[i]->get_name();
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if (!arg.starts_with("--") || arg.size() == 2) continue;
    const std::string name(arg.substr(0, arg.find('=')));
    bool known = false;
    for (const CLI::App* command : chain) known |= command->get_option_no_throw(name) != nullptr;
    if (!known)
      return Status::usage(
          fmt::format("unknown option {} for {} (see: {} --help)", name, path, path));
  }
  return Status::ok();
}

}  // namespace

Status check_command_line(CLI::App& app, int argc, char** argv) {
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const CLI::App* command : app.get_subcommands({})) known |= command->get_name() == argv[1];
    if (!known)
      return Status::usage(fmt::format("unknown command '{}' (see: idemlab --help)", argv[1]));
  }
  std::set<std::string> flags;
  collect_flags(app, &flags);
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    const size_t equals = arg.find('=');
    if (!arg.starts_with("--") || equals == std::string_view::npos) continue;
    const std::string name(arg.substr(2, equals - 2));
    if (flags.count(name))
      return Status::usage(fmt::format("--{} is a flag and takes no value", name));
  }
  return check_long_options(app, argc, argv);
}

namespace {

// "--x: nope not in {a,b,c}" -> "--x: 'nope' is not one of a, b, c".
std::string choices_words(std::string message) {
  const size_t in = message.find(" not in {");
  const size_t colon = message.find(": ");
  if (in == std::string::npos || colon == std::string::npos || colon > in) return message;
  std::string list = message.substr(in + 9);
  if (!list.empty() && list.back() == '}') list.pop_back();
  for (size_t at = 0; (at = list.find(',', at)) != std::string::npos; at += 2)
    list.replace(at, 1, ", ");
  return fmt::format("{}: '{}' is not one of {}", message.substr(0, colon),
                     message.substr(colon + 2, in - colon - 2), list);
}

}  // namespace

Status parse_error_status(const CLI::ParseError& error, CLI::App& app, int argc, char** argv) {
  const std::string what = error.what();
  const std::vector<CLI::App*> chain = command_chain(app, argc, argv);
  std::string path = "idemlab";
  for (size_t i = 1; i < chain.size(); ++i) path += " " + chain[i]->get_name();
  if (what.starts_with("A subcommand is required"))
    return Status::usage(chain.size() > 1
                             ? fmt::format("{} needs a command (see: {} --help)", path, path)
                             : "no command given: pick one of those above (idemlab COMMAND "
                               "--help says more)");
  if (what.starts_with("The following argument")) {
    const std::string words = what.substr(what.find(':') + 2);
    return Status::usage(fmt::format("unexpected argument{} {} for {} (see: {} --help)",
                                     words.find(' ') == std::string::npos ? "" : "s", words, path,
                                     path));
  }
  const size_t missing = what.find(": 1 required ");
  if (missing != std::string::npos && what.ends_with(" missing"))
    return Status::usage(fmt::format("{} needs a value", what.substr(0, missing)));
  std::string message = choices_words(what);
  if (!message.empty()) message[0] = static_cast<char>(std::tolower(message[0]));
  return Status::usage(message);
}

std::string command_overview(const CLI::App& app) {
  std::string out = "usage: idemlab COMMAND [OPTIONS]\n";
  std::vector<std::string> groups;
  for (const CLI::App* command : app.get_subcommands({}))
    if (std::find(groups.begin(), groups.end(), command->get_group()) == groups.end())
      groups.push_back(command->get_group());
  for (const std::string& group : groups) {
    std::string names;
    for (const CLI::App* command : app.get_subcommands({}))
      if (command->get_group() == group) names += (names.empty() ? "" : ", ") + command->get_name();
    out += "\n" + group + ":\n" + wrap(names, 2);
  }
  return out;
}

namespace {
struct ErrorRequest {
  std::string source, biz_seq;
};
ErrorRequest& error_request() {
  static ErrorRequest request;
  return request;
}
}  // namespace

void set_error_request(std::string source, std::string biz_seq) {
  error_request() = {std::move(source), std::move(biz_seq)};
}

int report_error(const Status& status, bool json) {
  const ExitCode code = exit_code_for(status);
  // A run asked to stop ends as stopped, whatever error its unwinding met: a signal shuts the
  // socket a wait was blocked on (core/interrupt.h), and that wait then fails as a lost
  // connection.
  if (interrupt_signal() != 0) {
    const int signal = interrupt_signal();
    std::fflush(nullptr);  // what was printed before the stop stays printed
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return 128 + signal;
  }
  const ExitCodeInfo& info = exit_code_info(code);
  std::string message = status.message();  // one line, whatever SQLite's text holds
  for (size_t at; (at = message.find('\n')) != std::string::npos;) message.replace(at, 1, "; ");
  // Standard error or output may be a file on a full disk, or a closed pipe: the exit code
  // still says what happened, and nothing more can be said.
  try {
    fmt::print(stderr, "error: {}\n", message);
    if (json) {
      nlohmann::ordered_json out{
          {"error", {{"code", info.name}, {"exit", static_cast<int>(code)}, {"message", message}}}};
      if (!status.reason().empty()) out["error"]["reason"] = status.reason();
      if (const ErrorRequest& request = error_request(); !request.biz_seq.empty()) {
        out["error"]["source"] = request.source;
        out["error"]["biz_seq"] = request.biz_seq;
      }
      fmt::print("{}\n", json_text(out));
    }
  } catch (const std::system_error&) {
  }
  return static_cast<int>(code);
}

CLI::Validator whole_number(int64_t low, int64_t high) {
  return CLI::Validator(
      [low, high](std::string& text) -> std::string {
        int64_t value = 0;
        if (parse_whole(text, low, high, &value)) return {};
        return fmt::format("expected a whole number from {} to {}, got '{}'", low, high, text);
      },
      fmt::format("INT:[{}..{}]", low, high));
}

}  // namespace idemlab
