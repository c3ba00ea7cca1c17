// The simulator's entry points: a run, after its settings pass the memory budget and every
// fault names a step the strategy reaches; and what a row's result promises.
#include "sim/simulate/simulate.h"

#include <fmt/format.h>

#include "attempt/fault_check.h"
#include "sim/shared/budget.h"
#include "sim/shared/connections.h"
#include "sim/simulate/simulation.h"

namespace idemlab {

std::vector<OpeningBalance> sim_opening_balances() {
  std::vector<OpeningBalance> accounts;
  for (int64_t i = 0; i < sim::kAccounts; ++i)
    accounts.push_back({sim::account_name(i), sim::kOpeningBalanceMinor});
  return accounts;
}

bool breaks_guarantee(const SimResult& result) {
  const Strategy* strategy = find_strategy(result.strategy);
  if (result.pitfall != Pitfall::kNone || !strategy || !strategy->info().guarded) return false;
  return result.moved_twice_or_more > 0 || result.never_moved > 0 || result.stuck > 0 ||
         result.inconsistent_answers > 0 || !result.audit_ok;
}

Status simulate(const SimConfig& given, const Strategy& strategy, Pitfall pitfall,
                const SimOptions& options, SimResult* out) {
  SimConfig config = given;  // with the replicas its failovers imply (sim_topology.h)
  RETURN_IF_ERROR(resolve_topology(&config.topology, &config.faults, config.read_your_writes));
  RETURN_IF_ERROR(check_sim_budget(config));
  if (options.server && !options.connections_checked)
    RETURN_IF_ERROR(
        check_server_connections(*options.server, "simulate", simulation_need(config, 1)));
  RETURN_IF_ERROR(check_faults(Surface::kSimulate, config.faults, &strategy, pitfall));
  try {
    sim::Simulation simulation(config, strategy, pitfall, options);
    return simulation.run(out);
  } catch (const StatusError& error) {
    return error.status;
  }
}

}  // namespace idemlab
