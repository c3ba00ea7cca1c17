// The memory estimate, an upper bound. The per-unit figures come from peak RSS of `simulate`
// (docs/never-harming-a-ledger.md, "Limits"): 7.6 MiB at 1,000 requests; the ledger about 360 bytes
// a request until it spills (sim/scratch_ledger.h), then at most its memory budget (the spill
// frees the in-memory copy before the spill file's read cache fills); about 240 KiB per
// connection in flight (1,100 in flight: 267 MiB), whose page cache is capped at 128 KiB more.
// A million dedup-table requests peak at 97 MiB against an estimate of 157.
#include "sim/shared/budget.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/limits.h"
#include "db/sqlite/mem_vfs.h"
#include "sim/shared/scratch_ledger.h"

namespace idemlab {

namespace {
constexpr int64_t kBaseBytes = 32 << 20;            // the program, SQLite, the first pages
constexpr int64_t kBytesPerRequest = 64;            // client state, latency, journal count
constexpr int64_t kLedgerBytesPerRequest = 400;     // the scratch ledger, until it spills
constexpr int64_t kBytesPerConnection = 384 << 10;  // a connection, its statements and cache
}  // namespace

int64_t estimate_sim_bytes(const SimConfig& config) {
  int64_t copies = 1;
  for (const FaultSpec& fault : config.faults)
    if (fault.kind == FaultKind::kDoubleSubmit || fault.kind == FaultKind::kRedeliver ||
        fault.kind == FaultKind::kRepublish)
      copies += fault.count;
  // A slow attempt can still be in flight when its retries arrive, so every attempt of every
  // client may hold a connection at once.
  const int64_t clients = std::min<int64_t>(config.concurrency, config.requests);
  const int64_t connections = clients * copies * config.retry.attempts + 2;
  const int64_t ledger = config.requests * kLedgerBytesPerRequest;
  const int64_t ledger_memory = ledger <= kScratchMemoryBytes
                                    ? ledger
                                    : std::max(kScratchMemoryBytes, kMemVfsSpillCacheBytes);
  return kBaseBytes + config.requests * kBytesPerRequest + ledger_memory +
         connections * kBytesPerConnection;
}

Status check_sim_budget(const SimConfig& config) {
  return check_sim_budget_for_jobs(config, 1);
}

Status check_sim_budget_for_jobs(const SimConfig& config, int jobs) {
  const int64_t bytes = estimate_sim_bytes(config) * std::max(1, jobs);
  if (bytes <= limits::kMemoryBudgetBytes) return Status::ok();
  return Status::usage(
      fmt::format("this run would need about {} MiB, over the {} MiB budget: lower --requests, "
                  "--concurrency, --retry attempts=, the fault's k=, or compare's --jobs",
                  bytes >> 20, limits::kMemoryBudgetBytes >> 20));
}

}  // namespace idemlab
