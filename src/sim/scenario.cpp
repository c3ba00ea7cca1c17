// Scenario files.
#include "sim/scenario.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#include <toml++/toml.h>

#include "strategies/strategy.h"

namespace idemlab {

namespace {

Status read_file(const std::string& path, std::string* out) {
  std::ifstream file(path);
  if (!file) return Status::usage(fmt::format("no built-in scenario or file named '{}' "
                                              "(see: idemlab scenarios)", path));
  std::stringstream buffer;
  buffer << file.rdbuf();
  *out = buffer.str();
  return Status::ok();
}

}  // namespace

Status parse_scenario(const std::string& text, const std::string& origin, SimConfig* config,
                      Scenario* out) {
  toml::parse_result parsed = toml::parse(text, origin);
  if (!parsed) {
    const auto& error = parsed.error();
    return Status::usage(fmt::format("scenario {}:{}: {}", origin, error.source().begin.line,
                                     error.description()));
  }
  const toml::table& table = parsed.table();
  static const std::vector<std::string> kKeys{"name", "summary", "exposes", "requests",
                                              "concurrency", "seed", "faults", "retry",
                                              "lock_ttl_ms", "token_ttl_ms"};
  for (const auto& [key, value] : table)
    if (std::find(kKeys.begin(), kKeys.end(), key.str()) == kKeys.end())
      return Status::usage(fmt::format("scenario {}: unknown key '{}'", origin, key.str()));
  Scenario scenario;
  scenario.name = table["name"].value_or(origin);
  scenario.summary = table["summary"].value_or(std::string());
  scenario.source = text;
  if (auto* exposes = table["exposes"].as_array())
    for (const auto& item : *exposes) scenario.exposes.push_back(item.value_or(std::string()));
  SimConfig result = *config;
  result.scenario = scenario.name;
  auto positive = [&](const char* key, int64_t* slot) -> Status {
    if (auto value = table[key].value<int64_t>()) {
      if (*value < 1) return Status::usage(fmt::format("scenario {}: {} must be >= 1", origin, key));
      *slot = *value;
    }
    return Status::ok();
  };
  int64_t concurrency = result.concurrency, seed = static_cast<int64_t>(result.seed);
  for (Status status : {positive("requests", &result.requests),
                        positive("concurrency", &concurrency), positive("seed", &seed),
                        positive("lock_ttl_ms", &result.lock_ttl_ms),
                        positive("token_ttl_ms", &result.token_ttl_ms)})
    if (!status.is_ok()) return status;
  result.concurrency = static_cast<int>(concurrency);
  result.seed = static_cast<uint64_t>(seed);
  if (auto* faults = table["faults"].as_array()) {
    result.faults.clear();
    for (const auto& item : *faults) {
      FaultSpec fault;
      if (Status status = parse_fault(item.value_or(std::string()), &fault); !status.is_ok())
        return Status::usage(fmt::format("scenario {}: {}", origin, status.message()));
      result.faults.push_back(std::move(fault));
    }
  }
  if (auto retry = table["retry"].value<std::string>()) {
    result.retry = RetryPolicy{};
    if (Status status = parse_retry(*retry, &result.retry); !status.is_ok())
      return Status::usage(fmt::format("scenario {}: {}", origin, status.message()));
  }
  *config = std::move(result);
  if (out) *out = std::move(scenario);
  return Status::ok();
}

Status load_scenario(const std::string& name_or_path, SimConfig* config, Scenario* out) {
  for (const BuiltinScenario& builtin : builtin_scenarios())
    if (name_or_path == builtin.name) return parse_scenario(builtin.text, builtin.name, config, out);
  std::string text;
  if (Status status = read_file(name_or_path, &text); !status.is_ok()) return status;
  return parse_scenario(text, name_or_path, config, out);
}

Status check_sim_faults(const std::vector<FaultSpec>& faults) {
  for (const FaultSpec& fault : faults) {
    if (fault.step.empty()) continue;
    bool known = false;
    for (const Strategy* strategy : all_strategies())
      for (std::string_view step : strategy->info().steps) known |= step == fault.step;
    if (!known)
      return Status::usage(fmt::format("fault {}: no strategy has a step '{}' "
                                       "(see: idemlab explain STRATEGY)", fault.name(), fault.step));
  }
  return Status::ok();
}

}  // namespace idemlab
