// The table of strategies, in the order the references present them, baseline last.
#include "strategies/registry.h"

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

bool reaches_step(const StrategyInfo& info, bool pitfall, std::string_view step) {
  const auto& excluded = pitfall ? info.safe_only_steps : info.pitfall_only_steps;
  return std::find(info.steps.begin(), info.steps.end(), step) != info.steps.end() &&
         std::find(excluded.begin(), excluded.end(), step) == excluded.end();
}

std::vector<std::string_view> reachable_steps(const StrategyInfo& info, bool pitfall) {
  std::vector<std::string_view> out;
  for (std::string_view step : info.steps)
    if (reaches_step(info, pitfall, step)) out.push_back(step);
  return out;
}

}  // namespace idemlab
