// The discrete-event simulation's loop. Events are ordered by (virtual time, sequence number),
// so the order is total and replayable; randomness is derived per (request, attempt, purpose)
// from the seed, so the schedule of faults and delays is the same whichever strategy runs.
#include "sim/simulate/simulation.h"

#include "core/interrupt.h"
#include "sim/simulate/lock_queue.h"
#include "sim/simulate/server_flights.h"

namespace idemlab::sim {

RunState::RunState(const SimConfig& run_config, const Strategy& run_strategy, Pitfall run_pitfall,
                   const SimOptions& run_options)
    : config(run_config),
      strategy(run_strategy),
      pitfall(run_pitfall),
      options(run_options),
      requests(static_cast<size_t>(run_config.requests)) {
  for (const FaultSpec& fault : config.faults)
    if (fault.kind == FaultKind::kShortTtl) short_ttl_ms = fault.ms;
}

RunState::~RunState() {
  guard_store = nullptr;
  pool.clear();
  client = Connection();
  busy = Connection();
}

void RunState::note(uint32_t request, int attempt, int copy, const char* actor, std::string what,
                    std::string detail, std::string result, std::string fault) {
  if (!traced(request)) return;
  timeline.push_back({clock.now_ms(), actor, request + 1, attempt, copy, std::move(what),
                      std::move(detail), std::move(result), "", std::move(fault)});
}

void RunState::record(const Connection& connection, Stmt stmt, const Binds& binds) {
  uint32_t index = &connection == &client ? 0 : &connection == &busy ? 1 : 2;
  for (size_t i = 0; i < pool.size(); ++i)
    if (pool[i].get() == &connection) index = static_cast<uint32_t>(i + 2);
  options.record->push_back({index, stmt, binds});
}

std::unique_ptr<StepRunner> make_step_runner(RunState& run, Server& server) {
  if (run.options.server) return std::make_unique<ServerFlights>(run, server);
  return std::make_unique<SqliteLockQueue>(run, server);
}

Simulation::Simulation(const SimConfig& config, const Strategy& strategy, Pitfall pitfall,
                       const SimOptions& options)
    : run_(config, strategy, pitfall, options) {
  runner_ = make_step_runner(run_, server_);
  server_.use(*runner_);
}

// --redis: a strategy with tokens or locks keeps them in Redis, in keys of the run's own.
Status Simulation::open_guard_store() {
  const StrategyInfo& info = run_.strategy.info();
  if (!run_.options.redis || !(info.needs_token || info.uses_lock_ttl)) return Status::ok();
  RETURN_IF_ERROR(ScratchRedis::create(*run_.options.redis, &redis_));
  run_.guard_store = &redis_.store();
  return Status::ok();
}

void Simulation::handle(const Event& event) {
  switch (event.kind) {
    case EventKind::kStart:
      return clients_.start_request(event.a);
    case EventKind::kSend:
      return clients_.send_attempt(event.a);
    case EventKind::kArrive:
      return server_.arrive(event.a);
    case EventKind::kStep:
      return server_.step(event.a);
    case EventKind::kWaitLimit:
      return runner_->wait_limit(event.a, static_cast<int64_t>(event.b));
    case EventKind::kAnswer:
      return clients_.answer(event.a);
    case EventKind::kTimeout:
      return clients_.timeout(event.a, event.b);
    case EventKind::kRetry:
      return clients_.retry(event.a);
    case EventKind::kBusyRelease:
      return server_.release_busy_lock();
  }
}

Status Simulation::run(SimResult* out) {
  RETURN_IF_ERROR(runner_->open());
  RETURN_IF_ERROR(open_guard_store());
  clients_.start(
      static_cast<uint32_t>(std::min<int64_t>(run_.config.concurrency, run_.config.requests)));
  while (!run_.events.empty()) {
    RETURN_IF_ERROR(check_interrupt());
    handle(run_.events.pop());
  }
  Status status = verdicts(out);
  out->engine = runner_->engine();
  out->isolation = run_.client.isolation();
  if (run_.guard_store) out->guard_store = run_.options.redis->shown;
  return status;
}

}  // namespace idemlab::sim
