// explore: every interleaving on the replayer of the engine in use (sqlite_replayer.cpp,
// server_replayer.cpp), walked depth first (walk.cpp), with --crash's crash points in turn, then
// the interleavings to show replayed once more to record their timelines.
#include "sim/explore/explore.h"

#include "sim/explore/replayer.h"
#include "sim/explore/server_replayer.h"
#include "sim/explore/sqlite_replayer.h"
#include "sim/shared/connections.h"

namespace idemlab {

namespace {

// The interleavings to show, replayed once more to record their timelines: first what breaks
// only because of the fault or topology asked for, when one does.
Status record_shown(Replayer& explorer, ExploreResult* out) {
  ExploreResult& result = *out;
  if (!result.fault_breaking_schedule.empty()) {  // shown first: what the fault alone breaks
    result.first_breaking_schedule = std::move(result.fault_breaking_schedule);
    result.first_breaking_point = result.fault_breaking_point;
    result.first_breaking_invariants = std::move(result.fault_breaking_invariants);
    result.first_breaking_by_fault = true;
  }
  result.plain_breaking.clear();
  if (!result.first_breaking_schedule.empty())
    RETURN_IF_ERROR(replay_timeline(explorer, result.first_breaking_schedule,
                                    result.first_breaking_point, &result, &result.first_breaking));
  if (result.first_deadlock_index > 0)
    RETURN_IF_ERROR(replay_timeline(explorer, result.first_deadlock_schedule, {}, &result,
                                    &result.first_deadlock));
  if (result.picked_index > 0)
    RETURN_IF_ERROR(replay_timeline(explorer, result.picked_schedule, result.picked_point, &result,
                                    &result.picked));
  return Status::ok();
}

// Every interleaving again with each kind of fault point asked for, at each of its places in
// turn, until no schedule reaches the next place.
Status explore_fault_points(Replayer& explorer, const ExploreConfig& config,
                            ExploreResult* result) {
  bool reached = false;
  // --crash: each attempt, after each statement it can reach, until no schedule reaches further.
  for (int attempt = 0; config.crash && attempt < config.duplicates; ++attempt) {
    for (int after = 1; !result->truncated; ++after) {
      reached = false;
      RETURN_IF_ERROR(explore_schedules(explorer, {attempt, after}, config, result, &reached));
      if (!reached) break;
    }
  }
  // --failover: right after each guard write of a run in turn, until no schedule has that many.
  for (int after = 1; result->fails_over && !result->truncated; ++after) {
    reached = false;
    RETURN_IF_ERROR(
        explore_schedules(explorer, {.failover_after = after}, config, result, &reached));
    if (!reached) break;
  }
  // --failover=ledger: right after each commit of a run that changed a row, in turn.
  for (int after = 1; config.ledger_failover && !result->truncated; ++after) {
    reached = false;
    RETURN_IF_ERROR(
        explore_schedules(explorer, {.ledger_failover_after = after}, config, result, &reached));
    if (!reached) break;
  }
  // Reads on the ledger's standby: it applies the run's first N commits that changed a row (the
  // link cut after them), for N = 0, 1, ... until no schedule makes a commit it misses.
  for (int applies = 0; config.replica_lag && !result->truncated; ++applies) {
    reached = false;
    RETURN_IF_ERROR(
        explore_schedules(explorer, {.replica_applies = applies}, config, result, &reached));
    if (!reached) break;
  }
  // A cluster's appliers: each commit applied 1 ms (a statement) after it, then 2, ... until no
  // schedule has a commit applied before its run ends (a longer lag is the same run).
  for (int lag = 1; config.galera_nodes > 0 && !result->truncated; ++lag) {
    reached = false;
    RETURN_IF_ERROR(explore_schedules(explorer, {.apply_lag_ms = lag}, config, result, &reached));
    if (!reached) break;
  }
  return Status::ok();
}

}  // namespace

Status explore(const Strategy& strategy, Pitfall pitfall, const ExploreConfig& config,
               ExploreResult* out) {
  if (config.server)
    RETURN_IF_ERROR(
        check_server_connections(*config.server, "explore", explore_need(config.duplicates)));
  ASSIGN_OR_RETURN(std::unique_ptr<Replayer> replayer,
                   config.server ? make_server_replayer(strategy, pitfall, config)
                                 : make_sqlite_replayer(strategy, pitfall, config));
  Replayer& explorer = *replayer;
  ExploreResult result;
  result.strategy = std::string(strategy.info().name);
  result.pitfall = pitfall;
  result.duplicates = config.duplicates;
  result.engine = config.server ? config.server->engine : kEmbeddedEngine;
  result.isolation = explorer.isolation();
  if (config.server && spreads_connections(config.server->topology))
    result.nodes = config.server->topology.members();
  if (config.galera_nodes > 0) result.nodes = config.galera_nodes;
  const bool keeps_guards = strategy.info().keeps_guards();
  if (config.redis && keeps_guards) result.guard_store = config.redis->shown;
  result.fails_over = config.failover && keeps_guards;
  result.ledger_fails_over = config.ledger_failover;
  result.guards_apart = config.guards_apart && keeps_guards;
  result.replica_lag = config.replica_lag;
  bool reached = false;
  RETURN_IF_ERROR(explore_schedules(explorer, {}, config, &result, &reached));
  RETURN_IF_ERROR(explore_fault_points(explorer, config, &result));
  RETURN_IF_ERROR(record_shown(explorer, &result));
  result.relinks = explorer.relinks();
  *out = std::move(result);
  return Status::ok();
}

}  // namespace idemlab
