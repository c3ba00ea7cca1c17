// The table of strategies, in the order the references present them, baseline last.
#include "strategies/registry.h"

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

}  // namespace idemlab
