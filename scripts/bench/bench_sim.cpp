// bench_sim: the simulator's throughput per strategy next to SQLite executing the very same
// statements with no simulator around them. For each strategy it records every statement a
// simulation ran (connection, statement, values), then times, in alternating rounds:
//   - the simulation itself (its ledger's creation and the audit included);
//   - the limit: the recorded statements, in order, on ONE connection to an in-memory database
//     (no files, no locks, no other connection's commits to re-read);
//   - the replay baseline: the same statements on a fresh ledger file through as many
//     connections as the simulation used (the same system calls the simulation pays);
//   - the scratch baseline: the same again on the simulation's own kind of ledger (in memory,
//     WAL, each recorded connection one of a statement pool's, as the simulator's attempts
//     are: db/sqlite/statement_pool.h): what SQLite alone costs the simulation, so that
//     limit / scratch is the share lost to WAL and to switching connections, and scratch / sim
//     the simulator's own share.
// Prints, per strategy, the medians of the rates, and the ratios of the simulation to the limit
// and to the replay baseline, each the median of the rounds' own.
// A benchmark, not a test: it reads the wall clock.
//
// The last line, "limit_all <requests/s>", is the limit over every strategy together (all
// their requests over all their limit time): what scripts/bench-sim divides compare by.
//
// With --db URL (PostgreSQL or MariaDB) the simulation runs on that server (simulate --db), and
// the limit is the recorded statements on ONE connection into a scratch ledger there, sent one
// after another as the server answers (what pgbench -f does with them). There is no replay
// baseline: on many connections the statements would wait for each other's locks.
//
// usage: bench_sim [--requests N] [--scenario NAME] [--strategy NAME] [--seed S] [--fault SPEC ...]
//                  [--db URL] [--concurrency N]
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

#include "db/sqlite/sqlite_backend.h"
#include "db/sqlite/statement_pool.h"
#include "sim/shared/scenario.h"
#include "sim/shared/scratch_ledger.h"
#include "sim/shared/scratch_server.h"
#include "sim/simulate/simulate.h"

using namespace idemlab;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// How many connections the simulation sent statements on.
uint32_t connections_used(const std::vector<RecordedStatement>& statements) {
  uint32_t count = 0;
  for (const auto& statement : statements) count = std::max(count, statement.connection + 1);
  return count;
}

// The statements, in order, each on its own connection's counterpart: seconds taken.
double replay_on(std::vector<Connection>& connections,
                 const std::vector<RecordedStatement>& statements) {
  auto start = std::chrono::steady_clock::now();
  for (const auto& statement : statements)
    (void)connections[statement.connection].run(statement.stmt, statement.binds);
  return seconds_since(start);
}

double replay(const std::vector<RecordedStatement>& statements) {
  std::string folder = (std::filesystem::temp_directory_path() / "idemlab-bench-XXXXXX").string();
  if (!::mkdtemp(folder.data())) throw std::runtime_error("mkdtemp");
  const std::string path = folder + "/replay.db";
  throw_if_error(create_ledger(path, sim_opening_balances(), false));
  double elapsed = 0;
  {
    std::vector<Connection> connections(connections_used(statements));
    for (auto& connection : connections)
      connection = value_or_throw(open_sqlite(path, scratch_connection_options()));
    elapsed = replay_on(connections, statements);
  }
  std::filesystem::remove_all(folder);
  return elapsed;
}

// The statements on a scratch ledger (in memory, WAL) through as many pooled connections as
// the simulation used: SQLite's own cost of the simulation's ledger, with no simulator around it.
double replay_scratch(const std::vector<RecordedStatement>& statements) {
  ScratchLedger ledger;
  Connection first;
  throw_if_error(ScratchLedger::create(sim_opening_balances(), &ledger, &first));
  std::unique_ptr<StatementPool> pool =
      value_or_throw(StatementPool::create([&ledger] { return ledger.connect(); }));
  std::vector<Connection> connections(connections_used(statements));
  for (auto& connection : connections) connection = pool->connect();
  return replay_on(connections, statements);
}

// The limit: one connection, an in-memory ledger. Statements that only made sense on another
// connection (a BEGIN while one is open) fail fast here and are counted in the time anyway.
double replay_in_memory(const std::vector<RecordedStatement>& statements) {
  ConnectionOptions options = scratch_connection_options();
  options.create = true;
  Connection connection = value_or_throw(open_sqlite(":memory:", options));
  throw_if_error(create_scratch_schema(connection, sim_opening_balances()));
  auto start = std::chrono::steady_clock::now();
  for (const auto& statement : statements) (void)connection.run(statement.stmt, statement.binds);
  return seconds_since(start);
}

// The limit on a server: one connection into a scratch ledger of its own there.
double replay_on_server(const Locator& server, const std::vector<RecordedStatement>& statements) {
  ScratchServer scratch;
  throw_if_error(ScratchServer::create(server, sim_opening_balances(), &scratch));
  Connection connection =
      value_or_throw(scratch.connect(scratch_server_options(Isolation::kDefault)));
  auto start = std::chrono::steady_clock::now();
  for (const auto& statement : statements) (void)connection.run(statement.stmt, statement.binds);
  const double elapsed = seconds_since(start);
  (void)connection.run(Stmt::kRollback, {});
  return elapsed;
}

double median(std::vector<double> runs) {
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  configure_sqlite();  // as idemlab's main() does
  int64_t requests = 20000;
  std::string scenario;  // "": idemlab's defaults, as with no --scenario
  std::string only;      // "": every strategy
  std::optional<uint64_t> seed;
  std::optional<int64_t> concurrency;
  std::optional<Locator> server;
  std::vector<FaultSpec> faults;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--requests") == 0) requests = std::stoll(argv[i + 1]);
    if (std::strcmp(argv[i], "--scenario") == 0) scenario = argv[i + 1];
    if (std::strcmp(argv[i], "--strategy") == 0) only = argv[i + 1];
    if (std::strcmp(argv[i], "--seed") == 0) seed = std::stoull(argv[i + 1]);
    if (std::strcmp(argv[i], "--concurrency") == 0) concurrency = std::stoll(argv[i + 1]);
    if (std::strcmp(argv[i], "--db") == 0) {
      Locator locator;
      throw_if_error(parse_locator(argv[i + 1], &locator));
      server = std::move(locator);
    }
    if (std::strcmp(argv[i], "--fault") == 0) {
      FaultSpec fault;
      throw_if_error(parse_fault(argv[i + 1], &fault));
      faults.push_back(fault);
    }
  }
  SimConfig config;
  if (!scenario.empty()) throw_if_error(load_scenario(scenario, &config, nullptr));
  config.requests = requests;
  if (seed) config.seed = *seed;
  if (concurrency) config.concurrency = *concurrency;
  if (!faults.empty()) config.faults = faults;  // --fault replaces the scenario's, as in idemlab
  fmt::print("{:<18} {:>9} {:>11} {:>11} {:>11} {:>12} {:>9} {:>10}\n", "strategy", "statements",
             "sim_req/s", "limit_req/s", "replay_req/s", "scratch_req/s", "vs_limit", "vs_replay");
  double worst = 1e9;
  double state_machine = 0;
  double limit_total = 0;
  int measured = 0;
  const double count = static_cast<double>(requests);
  for (const Strategy* strategy : all_strategies()) {
    if (!only.empty() && strategy->info().name != only) continue;
    // The recording run comes first and is not timed; it also warms caches for the timed one.
    SimResult result;
    std::vector<RecordedStatement> statements;
    SimOptions recording;
    recording.record = &statements;
    SimOptions timed;
    if (server) recording.server = timed.server = &*server;
    throw_if_error(simulate(config, *strategy, Pitfall::kNone, recording, &result));
    // Rounds alternate the four, so that machine noise hits each. A ratio is the median of the
    // rounds' own: this machine's speed drifts from round to round, and the simulation and its
    // limit, timed back to back, drift together.
    std::vector<double> simulated_runs, limit_runs, replay_runs, scratch_runs;
    std::vector<double> to_limit, to_replay;
    for (int round = 0; round < 3; ++round) {
      auto start = std::chrono::steady_clock::now();
      throw_if_error(simulate(config, *strategy, Pitfall::kNone, timed, &result));
      simulated_runs.push_back(seconds_since(start));
      limit_runs.push_back(server ? replay_on_server(*server, statements)
                                  : replay_in_memory(statements));
      replay_runs.push_back(server ? 0.0 : replay(statements));
      scratch_runs.push_back(server ? 0.0 : replay_scratch(statements));
      to_limit.push_back(limit_runs.back() / simulated_runs.back());
      to_replay.push_back(replay_runs.back() / simulated_runs.back());
    }
    const double simulated = median(simulated_runs);
    const double limit = median(limit_runs);
    const double replayed = median(replay_runs);
    const double scratch = median(scratch_runs);
    const double vs_limit = median(to_limit);
    worst = std::min(worst, vs_limit);
    if (strategy->info().name == "state-machine") state_machine = vs_limit;
    limit_total += limit;
    ++measured;
    fmt::print("{:<18} {:>9} {:>11.0f} {:>11.0f} {:>11} {:>12} {:>9.2f} {:>10}\n",
               strategy->info().name, statements.size(), count / simulated, count / limit,
               server ? "-" : fmt::format("{:.0f}", count / replayed),
               server ? "-" : fmt::format("{:.0f}", count / scratch), vs_limit,
               server ? "-" : fmt::format("{:.2f}", median(to_replay)));
  }
  fmt::print("worst ratio to the limit: {:.2f} (target: at least 0.5)\n", worst);
  if (state_machine > 0)
    fmt::print("state-machine's ratio to the limit: {:.2f} (target: at least 0.7)\n",
               state_machine);
  fmt::print("limit_all {:.0f}\n", count * measured / limit_total);
  return 0;
}
