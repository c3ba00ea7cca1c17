// The strategies, one accessor per file; registry.cpp lists them in one table.
#pragma once

#include "strategies/strategy.h"

namespace idemlab {

const Strategy& select_insert_strategy();
const Strategy& direct_insert_strategy();
const Strategy& state_machine_strategy();
const Strategy& dedup_table_strategy();
const Strategy& token_strategy();
const Strategy& select_for_update_strategy();
const Strategy& optimistic_lock_strategy();
const Strategy& lock_table_strategy();
const Strategy& naive_strategy();

}  // namespace idemlab
