// compare: the identical schedule against several strategies, each on a ledger of its own, run
// on as many threads as asked. Results come back in row order, so the output is the same bytes
// whatever the number of threads.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "sim/simulate/simulate.h"

namespace idemlab {

struct CompareRow {
  const Strategy* strategy = nullptr;
  Pitfall pitfall = Pitfall::kNone;
  // compare --backend: where the row runs ("sqlite": server is nullptr) and at which level.
  // Both empty without --backend: SQLite, and the rows carry no backend.
  std::string backend;
  const Locator* server = nullptr;
  Isolation isolation = Isolation::kDefault;
  const RedisLocator* redis = nullptr;  // --redis: where token and lock-table keep theirs
};

// Runs every row on `jobs` threads (at least 1). `rows_done` is called from the calling thread
// after each row finishes. The first error (an interrupt included) stops the rest.
Status compare(const SimConfig& config, std::span<const CompareRow> rows, int jobs,
               const std::function<void(size_t done, size_t total)>& rows_done,
               std::vector<SimResult>* out);

// The default number of threads: one per core.
int default_jobs();

}  // namespace idemlab
