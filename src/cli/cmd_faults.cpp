// `idemlab faults` and `idemlab scenarios`: what can go wrong, and the built-in stories.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "attempt/fault_check.h"
#include "cli/command.h"
#include "sim/shared/scenario.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct ListOptions {
  std::string name;
  bool json = false;
};

ExitCode run_faults(const ListOptions& options) {
  if (options.json) {
    nlohmann::ordered_json out{{"faults", nlohmann::ordered_json::array()}};
    for (const auto& f : fault_table())
      out["faults"].push_back(
          {{"name", f.name},
           {"parameters", f.parameters},
           {"description", f.description},
           {"taken_by", fault_surfaces(f)},
           {"one_attempt", (f.surfaces & surface_bit(Surface::kOneAttempt)) != 0}});
    print_json(out);
    return ExitCode::kOk;
  }
  // One block per fault, wrapped to the output width: a table of them would not fit.
  std::string out;
  for (const auto& f : fault_table()) {
    out += wrap(fmt::format("{}  ({}; taken by {})", f.name, f.parameters,
                            fmt::join(fault_surfaces(f), ", ")),
                0);
    out += wrap(f.description, 4);
  }
  out += "\n" + wrap(
                    "Syntax: --fault NAME[:key=value,...]. In simulations every fault also takes "
                    "p=PROBABILITY (per attempt) or nth=N (only the Nth request's first attempt). "
                    "How the servers stand (a standby, a Galera cluster, a replicated guard "
                    "store) is not a fault: simulate, compare, explore and report take it as "
                    "--topology (see their --help).",
                    0);
  fmt::print("{}", out);
  return ExitCode::kOk;
}

ExitCode run_scenarios(const ListOptions& options) {
  if (!options.name.empty()) {
    for (const auto& builtin : builtin_scenarios())
      if (options.name == builtin.name) {
        fmt::print("{}", builtin.text);
        return ExitCode::kOk;
      }
    throw_if_error(Status::usage("no built-in scenario named " + options.name));
  }
  std::vector<Scenario> scenarios;
  for (const auto& builtin : builtin_scenarios()) {
    SimConfig config;
    Scenario scenario;
    throw_if_error(parse_scenario(builtin.text, builtin.name, &config, &scenario));
    scenarios.push_back(std::move(scenario));
  }
  if (options.json) {
    nlohmann::ordered_json out{{"scenarios", nlohmann::ordered_json::array()}};
    for (const auto& s : scenarios) {
      nlohmann::ordered_json row{{"name", s.name}, {"summary", s.summary}, {"exposes", s.exposes}};
      if (!s.every_strategy.empty()) row["every_strategy"] = s.every_strategy;
      out["scenarios"].push_back(std::move(row));
    }
    print_json(out);
    return ExitCode::kOk;
  }
  std::string out;
  for (const auto& s : scenarios) {
    out += s.name + "\n" + wrap(s.summary, 4);
    out += wrap(fmt::format("exposes: {}", fmt::join(s.exposes, ", ")), 4);
    if (!s.every_strategy.empty())
      out += wrap(fmt::format("every strategy: {}", fmt::join(s.every_strategy, ", ")), 4);
  }
  out += "\n" + wrap("idemlab scenarios NAME prints one; use it with --scenario NAME.", 0);
  fmt::print("{}", out);
  return ExitCode::kOk;
}

}  // namespace

void register_faults(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<ListOptions>();
  CLI::App* command = app.add_subcommand("faults", "list the faults and their parameters");
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_faults(*options); });
}

void register_scenarios(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<ListOptions>();
  CLI::App* command = app.add_subcommand("scenarios", "list the built-in scenarios, or print one");
  command->add_option("name", options->name, "print this scenario's file");
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_scenarios(*options); });
}

}  // namespace idemlab
