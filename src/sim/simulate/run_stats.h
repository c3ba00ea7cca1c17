// The run's counters that no one part owns: what the result reports besides the verdicts.
// Internal to src/sim/simulate/.
#pragma once

#include <cstdint>

namespace idemlab::sim {

struct RunStats {
  int64_t attempts = 0;            // attempts the clients sent
  int64_t deliveries = 0;          // copies that reached the server (double submits, redeliveries)
  int64_t lock_waits = 0;          // times a statement found a lock taken and waited
  int64_t released_together = 0;   // on a server: steps that let two or more waiters go
  int64_t failovers = 0;           // times the guard store's replica took over
  int64_t guard_writes_lost = 0;   // writes the promoted replicas had not received
  int64_t ledger_failovers = 0;    // times the ledger's replica took over
  int64_t commits_lost = 0;        // commits the promoted ledger replicas had not received
  int64_t transactions_cut = 0;    // transactions under way when the ledger failed over
  int64_t promotions_refused = 0;  // ledger failovers whose standby was past max-lag-ms
  int64_t certification_failures = 0;  // ledger=galera: COMMITs the cluster refused
  int64_t links_lost = 0;              // on a server: attempts whose connection the servers cut
  int64_t relinks = 0;  // on a server: times the run connected again through the topology
};

}  // namespace idemlab::sim
