// Scenario files.
#include "sim/shared/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>

#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#include <toml++/toml.h>

#include "core/limits.h"
#include "sim/shared/judge.h"
#include "strategies/strategy.h"

namespace idemlab {

namespace {

Status read_file(const std::string& path, std::string* out) {
  std::error_code error;
  if (path.empty()) return Status::usage("--scenario is empty (see: idemlab scenarios)");
  if (!std::filesystem::is_regular_file(path, error))
    return Status::usage(
        fmt::format("no built-in scenario or file named '{}' "
                    "(see: idemlab scenarios)",
                    path));
  if (std::filesystem::file_size(path, error) >
      static_cast<std::uintmax_t>(limits::kMaxScenarioBytes))
    return Status::usage(fmt::format("scenario {}: larger than 1 MiB", path));
  std::ifstream file(path);
  if (!file) return Status::usage(fmt::format("scenario {}: cannot be read", path));
  std::stringstream buffer;
  buffer << file.rdbuf();
  *out = buffer.str();
  return Status::ok();
}

}  // namespace

namespace {

// "scenario FILE:LINE: key: ..." for a value in a scenario file.
Status bad_value(const std::string& origin, const toml::node& node, std::string_view key,
                 std::string_view why) {
  return Status::usage(
      fmt::format("scenario {}:{}: {}: {}", origin, node.source().begin.line, key, why));
}

Status read_text(const std::string& origin, const toml::node& node, std::string_view key,
                 std::string* out) {
  if (!node.is_string()) return bad_value(origin, node, key, "expected a string");
  *out = *node.value<std::string>();
  return Status::ok();
}

Status read_texts(const std::string& origin, const toml::node& node, std::string_view key,
                  std::vector<std::string>* out) {
  const toml::array* items = node.as_array();
  if (!items) return bad_value(origin, node, key, "expected an array of strings");
  out->clear();
  for (const toml::node& item : *items) {
    std::string text;
    if (!item.is_string()) return bad_value(origin, item, key, "expected an array of strings");
    out->push_back(*item.value<std::string>());
  }
  return Status::ok();
}

Status read_integer(const std::string& origin, const toml::node& node, const SimSetting& setting,
                    int64_t* out) {
  if (!node.is_integer()) return bad_value(origin, node, setting.key, "expected a whole number");
  const int64_t value = *node.value<int64_t>();
  Status status = check_range(setting.key, value, setting.low, setting.high);
  if (!status.is_ok()) return bad_value(origin, node, setting.key, status.message());
  *out = value;
  return Status::ok();
}

Status read_faults(const std::string& origin, const toml::node& node, std::vector<FaultSpec>* out) {
  std::vector<std::string> texts;
  RETURN_IF_ERROR(read_texts(origin, node, "faults", &texts));
  out->clear();
  for (const std::string& text : texts) {
    FaultSpec fault;
    if (Status status = parse_fault(text, &fault); !status.is_ok())
      return bad_value(origin, node, "faults", status.message());
    out->push_back(std::move(fault));
  }
  return Status::ok();
}

// every_strategy: names of verdicts that break a guarantee.
Status read_verdicts(const std::string& origin, const toml::node& node,
                     std::vector<std::string>* out) {
  RETURN_IF_ERROR(read_texts(origin, node, "every_strategy", out));
  const std::vector<std::string_view> known =
      broken_invariants(RequestVerdicts{.moved_twice_or_more = true,
                                        .never_moved = true,
                                        .stuck = true,
                                        .inconsistent_answers = true});
  for (const std::string& name : *out)
    if (std::find(known.begin(), known.end(), name) == known.end())
      return bad_value(origin, node, "every_strategy",
                       fmt::format("'{}' is not one of {}", name, fmt::join(known, ", ")));
  return Status::ok();
}

// One key of a scenario file into the config or the scenario's description.
Status read_key(const std::string& origin, std::string_view key, const toml::node& node,
                SimConfig* config, Scenario* scenario) {
  if (key == "name") return read_text(origin, node, key, &scenario->name);
  if (key == "summary") return read_text(origin, node, key, &scenario->summary);
  if (key == "exposes") return read_texts(origin, node, key, &scenario->exposes);
  if (key == "every_strategy") return read_verdicts(origin, node, &scenario->every_strategy);
  if (key == "faults") return read_faults(origin, node, &config->faults);
  if (key == "topology") {
    std::vector<std::string> texts;
    RETURN_IF_ERROR(read_texts(origin, node, key, &texts));
    if (Status status = parse_topologies(texts, &config->topology); !status.is_ok())
      return bad_value(origin, node, key, status.message());
    return Status::ok();
  }
  if (key == "sources") {
    std::vector<std::string> names;
    RETURN_IF_ERROR(read_texts(origin, node, key, &names));
    std::string joined;
    for (const std::string& name : names) joined += (joined.empty() ? "" : ",") + name;
    if (Status status = parse_sources(joined, &config->sources); !status.is_ok())
      return bad_value(origin, node, key, status.message());
    return Status::ok();
  }
  if (key == "retry") {
    std::string text;
    RETURN_IF_ERROR(read_text(origin, node, key, &text));
    config->retry = RetryPolicy{};
    if (Status status = parse_retry(text, &config->retry); !status.is_ok())
      return bad_value(origin, node, key, status.message());
    return Status::ok();
  }
  for (const SimSetting& setting : sim_settings()) {
    if (key != setting.key) continue;
    int64_t value = 0;
    RETURN_IF_ERROR(read_integer(origin, node, setting, &value));
    set_sim_setting(setting, value, config);
    return Status::ok();
  }
  return bad_value(origin, node, key,
                   "unknown key (known: name, summary, exposes, every_strategy, requests, "
                   "concurrency, seed, faults, topology, retry, lock_ttl_ms, token_ttl_ms, "
                   "sources)");
}

}  // namespace

std::span<const SimSetting> sim_settings() {
  static constexpr std::array kSettings{
      SimSetting{"requests", "--requests", 1, limits::kMaxRequests},
      SimSetting{"concurrency", "--concurrency", 1, limits::kMaxConcurrency},
      SimSetting{"seed", "--seed", 0, limits::kMaxSeed},
      SimSetting{"lock_ttl_ms", "--lock-ttl-ms", 1, limits::kMaxDurationMs},
      SimSetting{"token_ttl_ms", "--token-ttl-ms", 1, limits::kMaxDurationMs},
  };
  return kSettings;
}

void set_sim_setting(const SimSetting& setting, int64_t value, SimConfig* config) {
  const std::string_view key = setting.key;
  if (key == "requests")
    config->requests = value;
  else if (key == "concurrency")
    config->concurrency = static_cast<int>(value);
  else if (key == "seed")
    config->seed = static_cast<uint64_t>(value);
  else if (key == "lock_ttl_ms")
    config->lock_ttl_ms = value;
  else if (key == "token_ttl_ms")
    config->token_ttl_ms = value;
}

const SimSetting& sim_setting(std::string_view key) {
  for (const SimSetting& setting : sim_settings())
    if (setting.key == key) return setting;
  throw StatusError{Status::internal(fmt::format("no simulation setting '{}'", key))};
}

Status parse_scenario(const std::string& text, const std::string& origin, SimConfig* config,
                      Scenario* out) {
  toml::parse_result parsed = toml::parse(text, origin);
  if (!parsed) {
    const auto& error = parsed.error();
    return Status::usage(
        fmt::format("scenario {}:{}: {}", origin, error.source().begin.line, error.description()));
  }
  Scenario scenario;
  scenario.name = origin;
  scenario.source = text;
  SimConfig result = *config;
  for (const auto& [key, node] : parsed.table())
    RETURN_IF_ERROR(read_key(origin, key.str(), node, &result, &scenario));
  result.scenario = origin;  // what --scenario takes back: a built-in name or the file's path
  *config = std::move(result);
  if (out) *out = std::move(scenario);
  return Status::ok();
}

Status load_scenario(const std::string& name_or_path, SimConfig* config, Scenario* out) {
  for (const BuiltinScenario& builtin : builtin_scenarios())
    if (name_or_path == builtin.name)
      return parse_scenario(builtin.text, builtin.name, config, out);
  std::string text;
  RETURN_IF_ERROR(read_file(name_or_path, &text));
  return parse_scenario(text, name_or_path, config, out);
}

Status parse_sources(std::string_view text, std::vector<std::string>* out) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    std::string name(text.substr(start, comma - start));
    RETURN_IF_ERROR(validate_source(name));
    if (std::find(names.begin(), names.end(), name) != names.end())
      return Status::usage(fmt::format("source '{}' is listed twice", name));
    names.push_back(std::move(name));
    start = comma + 1;
  }
  if (names.size() > kMaxSources)
    return Status::usage(fmt::format("at most {} sources", kMaxSources));
  *out = std::move(names);
  return Status::ok();
}

}  // namespace idemlab
