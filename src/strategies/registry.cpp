// The table of strategies, in the order the references present them, baseline last.
#include "strategies/registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <string>

namespace idemlab {

std::span<const Strategy* const> all_strategies() {
  static const std::array<const Strategy*, 9> kAll{
      &select_insert_strategy(),   &direct_insert_strategy(), &state_machine_strategy(),
      &dedup_table_strategy(),     &token_strategy(),         &select_for_update_strategy(),
      &optimistic_lock_strategy(), &lock_table_strategy(),    &naive_strategy(),
  };
  return kAll;
}

const Strategy* find_strategy(std::string_view name) {
  for (const Strategy* strategy : all_strategies())
    if (strategy->info().name == name) return strategy;
  return nullptr;
}

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (const Strategy* strategy : all_strategies()) names.emplace_back(strategy->info().name);
  return names;
}

const PitfallInfo* find_pitfall(const StrategyInfo& info, Pitfall pitfall) {
  for (const PitfallInfo& entry : info.pitfalls)
    if (entry.id == pitfall) return &entry;
  return nullptr;
}

Pitfall main_pitfall(const StrategyInfo& info) {
  return info.pitfalls.empty() ? Pitfall::kNone : info.pitfalls.front().id;
}

namespace {
bool contains(const std::vector<std::string_view>& list, std::string_view step) {
  return std::find(list.begin(), list.end(), step) != list.end();
}
}  // namespace

bool reaches_step(const StrategyInfo& info, Pitfall pitfall, std::string_view step) {
  const PitfallInfo* entry = find_pitfall(info, pitfall);
  if (entry && contains(entry->adds, step)) return true;
  return contains(info.steps, step) && !(entry && contains(entry->skips, step));
}

std::vector<std::string_view> reachable_steps(const StrategyInfo& info, Pitfall pitfall) {
  std::vector<std::string_view> out;
  for (std::string_view step : info.steps)
    if (reaches_step(info, pitfall, step)) out.push_back(step);
  if (const PitfallInfo* entry = find_pitfall(info, pitfall))
    for (std::string_view step : entry->adds)
      if (!contains(out, step)) out.push_back(step);
  return out;
}

std::string pitfall_command(const StrategyInfo& info, const PitfallInfo& pitfall) {
  const std::string_view shown_by = pitfall.shown_by;
  const size_t space = std::min(shown_by.find(' '), shown_by.size());
  return fmt::format("idemlab {} --strategy {}{}{}", shown_by.substr(0, space), info.name,
                     pitfall_argument(pitfall.id), shown_by.substr(space));
}

std::string_view slow_default_step(const StrategyInfo& info, Pitfall pitfall) {
  const PitfallInfo* entry = find_pitfall(info, pitfall);
  if (entry && !entry->critical_step.empty()) return entry->critical_step;
  return info.critical_step;
}

Status resolve_pitfall(const StrategyInfo& info, std::string_view name, Pitfall* out) {
  if (info.pitfalls.empty())
    return Status::usage(fmt::format("{} has no guard, so it has no pitfall", info.name));
  if (name.empty()) {
    *out = main_pitfall(info);
    return Status::ok();
  }
  std::vector<std::string_view> names;
  for (const PitfallInfo& entry : info.pitfalls) {
    if (pitfall_name(entry.id) == name) {
      *out = entry.id;
      return Status::ok();
    }
    names.push_back(pitfall_name(entry.id));
  }
  return Status::usage(
      fmt::format("{} has no pitfall '{}' (it has: {})", info.name, name, fmt::join(names, ", ")));
}

}  // namespace idemlab
