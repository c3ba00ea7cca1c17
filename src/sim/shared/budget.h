// The memory budget of a simulation: what a run's settings will need, estimated before it
// starts, so that a run too large for limits::kMemoryBudgetBytes is refused with the figure
// instead of being killed by the OS halfway.
#pragma once

#include <cstdint>

#include "core/status.h"
#include "sim/shared/scenario.h"

namespace idemlab {

// Bytes a simulation with `config` may hold at its peak: per-request state, and one SQLite
// connection for every delivery that can be in flight at once.
int64_t estimate_sim_bytes(const SimConfig& config);

// Refuses (usage error, naming the estimate and the budget) a run over the budget.
Status check_sim_budget(const SimConfig& config);
// The same for `jobs` simulations at once (compare --jobs).
Status check_sim_budget_for_jobs(const SimConfig& config, int jobs);

}  // namespace idemlab
