// The discrete-event simulation's loop. Events are ordered by (virtual time, sequence number),
// so the order is total and replayable; randomness is derived per (request, attempt, purpose)
// from the seed, so the schedule of faults and delays is the same whichever strategy runs.
#include "sim/simulate/simulation.h"

#include "core/interrupt.h"
#include "sim/simulate/lock_queue.h"
#include "sim/simulate/server_flights.h"

namespace idemlab::sim {

std::unique_ptr<StepRunner> make_step_runner(const RunParts& parts) {
  if (parts.settings.options.server) return std::make_unique<ServerFlights>(parts);
  return std::make_unique<SqliteLockQueue>(parts);
}

Simulation::Simulation(const SimConfig& config, const Strategy& strategy, Pitfall pitfall,
                       const SimOptions& options)
    : settings_(config, strategy, pitfall, options) {
  runner_ =
      make_step_runner(RunParts{settings_, events_, trace_, stats_, ledger_, network_, endpoint_});
  endpoint_.use(*runner_);
}

// A strategy with tokens or locks keeps them apart from the ledger: with --redis in Redis, in
// keys of the run's own; with guards=replica in the simulator's replicated store.
Status Simulation::open_guard_store() {
  if (!settings_.strategy.info().keeps_guards()) return Status::ok();
  IDEMLAB_CHECK(!(settings_.guards_replica() && settings_.options.redis),
                "guards=replica and --redis are refused together before a run");
  if (settings_.guards_replica()) {
    RETURN_IF_ERROR(ledger_.replicas.open_guards(settings_.config.topology.guards_lag_ms));
    ledger_.guard_store = ledger_.replicas.guards();
  } else if (settings_.options.redis) {
    RETURN_IF_ERROR(ScratchRedis::create(*settings_.options.redis, &redis_));
    ledger_.guard_store = &redis_.store();
    endpoint_.stepper().guard_loss_costs_attempt = true;  // Redis connects again by itself
  }
  return Status::ok();
}

void Simulation::handle(const Event& event) {
  switch (event.kind) {
    case EventKind::kStart:
      return clients_.start_request(event.a);
    case EventKind::kSend:
      return clients_.send_attempt(event.a);
    case EventKind::kArrive:
      return endpoint_.arrive(event.a);
    case EventKind::kStep:
      return endpoint_.step(event.a);
    case EventKind::kWaitLimit:
      return runner_->wait_limit(event.a, static_cast<int64_t>(event.b));
    case EventKind::kAnswer:
      return clients_.answer(event.a);
    case EventKind::kTimeout:
      return clients_.timeout(event.a, event.b);
    case EventKind::kRetry:
      return clients_.retry(event.a);
    case EventKind::kBusyRelease:
      return endpoint_.release_busy_lock();
    case EventKind::kFailover:
      return endpoint_.fail_over_at_time(settings_.config.faults[event.a]);
  }
}

// A read standby drops due writes unapplied once no read can ask for their rows: the client of
// every request that could is done with it, and no copy of it is in flight.
void Simulation::forget_settled_reads() {
  LaggingReplica* standby = ledger_.replicas.read_standby();
  if (!standby) return;
  standby->forget_when([this](std::string_view source, std::string_view biz_seq, bool any_source) {
    const RequestKeys& keys = settings_.keys;
    if (!any_source) return settled(keys.request_of(source, biz_seq));
    for (const std::string& each : settings_.config.sources) {
      const int64_t request = keys.request_of(each, biz_seq);
      if (request >= 0 && static_cast<size_t>(request) < clients_.requests().size() &&
          !settled(request))
        return false;
    }
    return true;
  });
}

// Whether `request` will send nothing more (a request the run has not is never said to be).
bool Simulation::settled(int64_t request) const {
  if (request < 0 || static_cast<size_t>(request) >= clients_.requests().size()) return false;
  const auto index = static_cast<uint32_t>(request);
  const ClientPhase phase = clients_.requests()[index].phase;
  return (phase == ClientPhase::kDone || phase == ClientPhase::kGaveUp) &&
         !network_.in_flight(index);
}

Status Simulation::run(SimResult* out) {
  RETURN_IF_ERROR(runner_->open());
  RETURN_IF_ERROR(open_guard_store());
  forget_settled_reads();
  const SimConfig& config = settings_.config;
  clients_.start(static_cast<uint32_t>(std::min<int64_t>(config.concurrency, config.requests)));
  for (size_t i = 0; i < config.faults.size(); ++i)
    if (config.faults[i].kind == FaultKind::kFailover && config.faults[i].at_ms >= 0)
      events_.schedule_in(config.faults[i].at_ms, EventKind::kFailover, static_cast<uint32_t>(i));
  while (!events_.empty()) {
    RETURN_IF_ERROR(check_interrupt());
    handle(events_.pop());
  }
  RETURN_IF_ERROR(runner_->finish());
  Status status = verdicts(out);
  out->engine = runner_->engine();
  out->isolation = ledger_.client.isolation();
  if (settings_.options.server && spreads_connections(settings_.options.server->topology))
    out->nodes = settings_.options.server->topology.members();
  if (ledger_.guard_store && !ledger_.replicas.guards())
    out->guard_store = settings_.options.redis->shown;
  out->failovers = stats_.failovers;
  out->guard_writes_lost = stats_.guard_writes_lost;
  out->ledger_failovers = stats_.ledger_failovers;
  out->commits_lost = stats_.commits_lost;
  out->transactions_cut = stats_.transactions_cut;
  out->promotions_refused = stats_.promotions_refused;
  out->links_lost = stats_.links_lost;
  out->relinks = stats_.relinks;
  if (redis_.open()) out->guard_links_lost = redis_.losses();
  out->galera_nodes = settings_.galera_nodes;
  out->certification_failures = stats_.certification_failures;
  if (settings_.config.topology.queue_dedups)
    out->queue_window_ms = settings_.config.topology.queue_window_ms;
  out->dropped_by_broker = network_.dropped_by_broker();
  return status;
}

}  // namespace idemlab::sim
