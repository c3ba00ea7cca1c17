// bench_sim: the simulator's throughput per strategy next to SQLite executing the very same
// statements with no simulator around them. For each strategy it runs the simulation once
// timed, once recording every statement (connection, statement, values), then replays the
// recording on an identical fresh ledger through the same number of connections, timed.
// Prints one row per strategy; the ratio is simulator throughput / SQLite-alone throughput.
// The simulator's time includes creating its ledger and the audit after the run.
// A benchmark, not a test: it reads the wall clock.
//
// usage: bench_sim [--requests N] [--scenario NAME]
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>

#include "sim/engine.h"
#include "sim/scenario.h"

using namespace idemlab;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double replay(const std::vector<RecordedStatement>& statements) {
  std::string folder = (std::filesystem::temp_directory_path() / "idemlab-bench-XXXXXX").string();
  if (!::mkdtemp(folder.data())) throw std::runtime_error("mkdtemp");
  const std::string path = folder + "/replay.db";
  throw_if_error(create_sim_ledger(path));
  uint32_t count = 0;
  for (const auto& statement : statements) count = std::max(count, statement.connection + 1);
  double elapsed = 0;
  {
    std::vector<Connection> connections(count);
    for (auto& connection : connections)
      throw_if_error(Connection::open(path, sim_connection_options(), &connection));
    auto start = std::chrono::steady_clock::now();
    for (const auto& statement : statements)
      (void)connections[statement.connection].run(statement.stmt, statement.binds);
    elapsed = seconds_since(start);
  }
  std::filesystem::remove_all(folder);
  return elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t requests = 20000;
  std::string scenario = "mixed";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--requests") == 0) requests = std::stoll(argv[i + 1]);
    if (std::strcmp(argv[i], "--scenario") == 0) scenario = argv[i + 1];
  }
  SimConfig config;
  throw_if_error(load_scenario(scenario, &config, nullptr));
  config.requests = requests;
  fmt::print("{:<18} {:>9} {:>10} {:>12} {:>11} {:>12} {:>7}\n", "strategy", "requests", "sim_s",
             "sim_req/s", "sqlite_s", "statements", "ratio");
  double worst = 1e9;
  for (const Strategy* strategy : all_strategies()) {
    // The recording run comes first and is not timed; it also warms caches for the timed one.
    SimResult result;
    std::vector<RecordedStatement> statements;
    SimOptions recording;
    recording.record = &statements;
    throw_if_error(simulate(config, *strategy, Pitfall::kNone, recording, &result));
    // Three rounds, simulation and replay alternating, so that machine noise hits both; the
    // medians are compared.
    std::vector<double> simulated_runs, alone_runs;
    for (int round = 0; round < 3; ++round) {
      auto start = std::chrono::steady_clock::now();
      throw_if_error(simulate(config, *strategy, Pitfall::kNone, {}, &result));
      simulated_runs.push_back(seconds_since(start));
      alone_runs.push_back(replay(statements));
    }
    std::sort(simulated_runs.begin(), simulated_runs.end());
    std::sort(alone_runs.begin(), alone_runs.end());
    const double simulated = simulated_runs[1];
    const double alone = alone_runs[1];
    const double ratio = alone / simulated;
    worst = std::min(worst, ratio);
    fmt::print("{:<18} {:>9} {:>10.2f} {:>12.0f} {:>11.2f} {:>12} {:>7.2f}\n",
               strategy->info().name, requests, simulated,
               static_cast<double>(requests) / simulated, alone, statements.size(), ratio);
  }
  fmt::print("worst ratio: {:.2f} (target: at least 0.5)\n", worst);
  return 0;
}
