// The discrete-event simulation's loop and its ledger. Events are ordered by (virtual time,
// sequence number), so the order is total and replayable; randomness is derived per (request,
// attempt, purpose) from the seed, so the schedule of faults and delays is the same whichever
// strategy runs. The parts live beside it (simulation.h lists them).
#include "sim/engine.h"

#include "attempt/serve.h"
#include "attempt/step_values.h"
#include "core/interrupt.h"
#include "db/ledger_file.h"
#include "sim/budget.h"
#include "sim/simulation.h"

namespace idemlab {

namespace sim {

// The ledger is a scratch ledger in memory; the client's connection creates it.
Status Simulation::open_ledger_files() {
  if (on_server()) return open_server_ledger();
  if (Status status = ScratchLedger::create(sim_opening_balances(), &ledger_, &client_);
      !status.is_ok())
    return status;
  if (Status status = ledger_.connect(&busy_); !status.is_ok()) return status;
  if (options_.record) {
    stepper_.on_run = [this](const Connection& connection, const PendingStep& step) {
      record(connection, step.stmt, step.binds);
    };
  }
  return Status::ok();
}

// --redis: a strategy with tokens or locks keeps them in Redis, in keys of the run's own.
Status Simulation::open_guard_store() {
  const StrategyInfo& info = strategy_.info();
  if (!options_.redis || !(info.needs_token || info.uses_lock_ttl)) return Status::ok();
  if (Status status = ScratchRedis::create(*options_.redis, &redis_); !status.is_ok())
    return status;
  guard_store_ = &redis_.store();
  return Status::ok();
}

void Simulation::record(const Connection& connection, Stmt stmt, const Binds& binds) {
  uint32_t index = &connection == &client_ ? 0 : &connection == &busy_ ? 1 : 2;
  for (size_t i = 0; i < pool_.size(); ++i)
    if (pool_[i].get() == &connection) index = static_cast<uint32_t>(i + 2);
  options_.record->push_back({index, stmt, binds});
}

Connection* Simulation::take_connection() {
  if (free_connections_.empty()) {
    auto connection = std::make_unique<Connection>();
    if (on_server()) {
      ConnectionOptions options = scratch_server_options(options_.isolation);
      options.nonblocking = true;
      throw_if_error(server_ledger_.connect(options, connection.get()));
    } else {
      throw_if_error(ledger_.connect(connection.get()));
    }
    pool_.push_back(std::move(connection));
    return pool_.back().get();
  }
  Connection* connection = free_connections_.back();
  free_connections_.pop_back();
  return connection;
}

void Simulation::note(uint32_t request, int attempt, int copy, const char* actor, std::string what,
                      std::string detail, std::string result, std::string fault) {
  if (!traced(request)) return;
  timeline_.push_back({clock_.now_ms(), actor, request + 1, attempt, copy, std::move(what),
                       std::move(detail), std::move(result), "", std::move(fault)});
}

void Simulation::note_step(const Delivery& delivery, const ExecutedStep& done, const Binds& binds) {
  if (!traced(delivery.request)) return;
  const Engine engine = on_server() ? options_.server->engine : Engine::kSqlite;
  timeline_.push_back(
      {clock_.now_ms(), "server", delivery.request + 1, delivery.attempt, delivery.copy,
       std::string(done.step), "", describe_values_on(engine, done.stmt, binds, done.result),
       std::string(connection_for(delivery, done.stmt).statement_text(done.stmt)), ""});
}

// Past the server's busy timeout: run the step once more and let the strategy see busy. On a
// server: cancel the waiting statement, as the server's own wait limit would. `wait_start_ms`
// tells this wait from a later one of the same delivery.
void Simulation::wait_limit(uint32_t index, int64_t wait_start_ms) {
  Delivery& delivery = deliveries_[index];
  if (!delivery.live || delivery.wait_start_ms != wait_start_ms) return;
  if (on_server()) {
    if (delivery.lock_waiting) cancel_wait(index);
  } else if (delivery.asleep) {
    delivery.asleep = false;
    step(index);
  }
}

// The busy fault's writer only held the lock; its rollback has nothing to fail on.
void Simulation::release_busy_lock() {
  transaction_may_end(busy_.session_id());
  (void)busy_.run(Stmt::kRollback, {});
  if (options_.record) record(busy_, Stmt::kRollback, {});
  lock_holder_ = kNoHolder;
  wake_next();
  busy_held_ = false;
  if (on_server()) settle_flights(kNoHolder);  // what waited for the rows goes on
}

Status Simulation::run(SimResult* out) {
  if (Status status = open_ledger_files(); !status.is_ok()) return status;
  if (Status status = open_guard_store(); !status.is_ok()) return status;
  const uint32_t workers =
      static_cast<uint32_t>(std::min<int64_t>(config_.concurrency, config_.requests));
  worker_request_.assign(workers, UINT32_MAX);
  for (uint32_t worker = 0; worker < workers; ++worker) schedule_in(worker, Kind::kStart, worker);
  while (!events_.empty()) {
    if (Status status = check_interrupt(); !status.is_ok()) return status;
    Event event = events_.top();
    events_.pop();
    clock_.set_ms(event.at);
    switch (event.kind) {
      case Kind::kStart:
        start_request(event.a);
        break;
      case Kind::kSend:
        send_attempt(event.a);
        break;
      case Kind::kArrive:
        arrive(event.a);
        break;
      case Kind::kStep:
        step(event.a);
        break;
      case Kind::kWaitLimit:
        wait_limit(event.a, static_cast<int64_t>(event.b));
        break;
      case Kind::kAnswer:
        answer(event.a);
        break;
      case Kind::kTimeout:
        timeout(event.a, event.b);
        break;
      case Kind::kRetry:
        retry(event.a);
        break;
      case Kind::kBusyRelease:
        release_busy_lock();
        break;
    }
  }
  Status status = verdicts(out);
  if (on_server()) {
    out->engine = std::string(engine_name(options_.server->engine));
    out->isolation = client_.isolation();
  }
  if (guard_store_) out->guard_store = options_.redis->shown;
  return status;
}

}  // namespace sim

std::vector<OpeningBalance> sim_opening_balances() {
  std::vector<OpeningBalance> accounts;
  for (int64_t i = 0; i < sim::kAccounts; ++i)
    accounts.push_back({fmt::format("a{:02}", i), sim::kOpeningBalanceMinor});
  return accounts;
}

bool breaks_guarantee(const SimResult& result) {
  const Strategy* strategy = find_strategy(result.strategy);
  if (result.pitfall != Pitfall::kNone || !strategy || !strategy->info().guarded) return false;
  return result.moved_twice_or_more > 0 || result.never_moved > 0 || result.stuck > 0 ||
         result.inconsistent_answers > 0 || !result.audit_ok;
}

Status simulate(const SimConfig& config, const Strategy& strategy, Pitfall pitfall,
                const SimOptions& options, SimResult* out) {
  if (Status status = check_sim_budget(config); !status.is_ok()) return status;
  for (const FaultSpec& fault : config.faults)
    if (Status status = check_fault_steps(fault, strategy.info(), pitfall); !status.is_ok())
      return status;
  try {
    sim::Simulation simulation(config, strategy, pitfall, options);
    return simulation.run(out);
  } catch (const StatusError& error) {
    return error.status;
  }
}

}  // namespace idemlab
