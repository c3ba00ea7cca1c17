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

namespace idemlab {

namespace {

Status run_row(const SimConfig& config, const CompareRow& row, SimResult* out) {
  SimOptions options;
  options.server = row.server;
  options.isolation = row.isolation;
  options.redis = row.redis;
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

Status compare(const SimConfig& config, std::span<const CompareRow> rows, int jobs,
               const std::function<void(size_t done, size_t total)>& rows_done,
               std::vector<SimResult>* out) {
  RETURN_IF_ERROR(check_steps_reached(config, rows));
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
