// The parallel runner behind compare. Each simulation owns its ledger, connections, clock and
// random sources, so rows share nothing but the read-only strategy table and config.
#include "sim/simulate/compare.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <new>
#include <thread>

#include "sim/shared/connections.h"

namespace idemlab {

namespace {

Status run_row(const SimConfig& config, const CompareRow& row, SimResult* out) {
  SimOptions options;
  options.server = row.server;
  options.isolation = row.isolation;
  options.redis = row.redis;
  options.connections_checked = true;  // compare() checked every row's server at once
  try {
    Status status = simulate(config, *row.strategy, row.pitfall, options, out);
    out->backend = row.backend;
    // SQLite has one writer at a time: every transaction is serializable.
    if (!row.backend.empty() && out->isolation.empty()) out->isolation = "serializable";
    return status;
  } catch (const std::bad_alloc&) {
    return Status::internal("out of memory");
  } catch (const std::exception& error) {
    return Status::internal(error.what());
  }
}

}  // namespace

int default_jobs() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// A fault aimed at a step some rows never reach would do nothing there: refuse it, naming them.
Status check_steps_reached(const SimConfig& config, std::span<const CompareRow> rows) {
  for (const FaultSpec& fault : config.faults) {
    std::vector<std::string> lacking;
    for (const CompareRow& row : rows)
      if (!fault.step.empty() && !reaches_step(row.strategy->info(), row.pitfall, fault.step)) {
        std::string name = std::string(row.strategy->info().name) + pitfall_argument(row.pitfall);
        if (std::find(lacking.begin(), lacking.end(), name) ==
            lacking.end())  // once, not per backend
          lacking.push_back(std::move(name));
      }
    if (!lacking.empty())
      return Status::usage(fmt::format(
          "fault {}: step '{}' is never reached by {}; choose --strategies that reach it, or "
          "leave the step out (crash then picks one each attempt reaches)",
          fault.text, fault.step, fmt::join(lacking, ", ")));
  }
  return Status::ok();
}

// Up to `jobs` rows run at once, so a server may carry that many simulations together: checked
// once per server before any row runs.
Status check_connections(const SimConfig& config, std::span<const CompareRow> rows, int jobs) {
  std::vector<const Locator*> servers;
  for (const CompareRow& row : rows)
    if (row.server && std::none_of(servers.begin(), servers.end(), [&](const Locator* known) {
          return known->shown == row.server->shown;
        }))
      servers.push_back(row.server);
  for (const Locator* server : servers) {
    const int64_t rows_there = std::count_if(rows.begin(), rows.end(), [&](const CompareRow& row) {
      return row.server && row.server->shown == server->shown;
    });
    const int64_t at_once = std::min<int64_t>(std::max(1, jobs), rows_there);
    ConnectionNeed need = simulation_need(config, at_once);
    if (at_once > 1) need.what_to_lower = "--jobs or --concurrency";
    RETURN_IF_ERROR(check_server_connections(*server, "compare", need));
  }
  return Status::ok();
}

Status compare(const SimConfig& config, std::span<const CompareRow> rows, int jobs,
               const std::function<void(size_t done, size_t total)>& rows_done,
               std::vector<SimResult>* out) {
  RETURN_IF_ERROR(check_steps_reached(config, rows));
  RETURN_IF_ERROR(check_connections(config, rows, jobs));
  std::vector<SimResult> results(rows.size());
  std::vector<Status> statuses(rows.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::condition_variable finished_one;
  size_t finished = 0;
  auto worker = [&] {
    for (size_t i; !failed && (i = next++) < rows.size();) {
      statuses[i] = run_row(config, rows[i], &results[i]);
      if (!statuses[i].is_ok()) failed = true;
      std::lock_guard lock(mutex);
      ++finished;
      finished_one.notify_one();
    }
  };
  if (rows.empty()) return Status::ok();
  const size_t threads = std::clamp<size_t>(static_cast<size_t>(jobs), 1, rows.size());
  std::vector<std::jthread> pool;
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  {
    std::unique_lock lock(mutex);
    for (size_t reported = 0; reported < rows.size() && !failed;) {
      finished_one.wait(lock, [&] { return finished > reported || failed; });
      for (; reported < finished; ++reported)
        if (rows_done) rows_done(reported + 1, rows.size());
    }
  }
  pool.clear();  // joins
  for (const Status& status : statuses)
    if (!status.is_ok()) return status;
  *out = std::move(results);
  return Status::ok();
}

}  // namespace idemlab
