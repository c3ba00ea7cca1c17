// SimTopology: how a simulated run's servers stand, apart from what happens to them (the faults).
// Given as --topology PART=SHAPE[:key=value,...] (repeatable) or a scenario's `topology` list:
//   ledger=server                    one ledger (the default)
//   ledger=standby[:lag-ms=MS,reads=primary|standby,sync=off|on|strict,max-lag-ms=MS]
//                                    the ledger with a standby that applies each commit MS
//                                    later (default 1000); reads=standby sends the reads a
//                                    strategy makes outside its write transaction there
//                                    (read/write splitting, as `--read-db` does live); a
//                                    failover of the ledger (a fault) promotes it. sync=on or
//                                    strict: it has every commit its primary answered, so a
//                                    failover loses none (Patroni's synchronous_mode, _strict);
//                                    max-lag-ms: a standby further behind is not promoted
//                                    (Patroni's maximum_lag_on_failover, in time here). On
//                                    servers: a primary and its standby, named as failover
//                                    candidates, or three nodes behind Patroni.
//   ledger=galera[:nodes=N,apply-ms=MS,sync-wait=0|1,retry-autocommit=0|1]
//                                    a Galera cluster: every node takes writes, certification at
//                                    COMMIT. On servers: a cluster URL.
//   guards=server                    tokens and locks kept in the ledger (the default)
//   guards=replica[:lag-ms=MS,sync=off|on]
//                                    tokens and locks in a store of their own with an
//                                    asynchronous replica MS behind (default 0), or with
//                                    sync=on one that has every write acknowledged: a Redis
//                                    primary and its replica, named by Sentinels on servers.
//   guards=lease                     tokens and locks in a consensus store (etcd): a write it
//                                    acknowledged survives a member's failure; a lock lives
//                                    under a lease of its TTL, with no keepalive, and each grant
//                                    carries a fence that grows (the key's create_revision).
//   queue=plain                      the queue that carries copies of a request (republish,
//                                    redeliver) dedups nothing, as RabbitMQ (the default)
//   queue=jetstream[:window-ms=MS]   the broker drops a republished copy that comes within MS of
//                                    the first publish (default 120000): NATS JetStream's
//                                    duplicate window on the business key (Nats-Msg-Id). A
//                                    redelivery is no publish: it goes through.
// A failover fault needs the replica it promotes; resolve_topology() adds the one a fault
// implies when the run names none.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attempt/fault.h"
#include "core/status.h"

namespace idemlab {

enum class LedgerShape : uint8_t { kServer, kStandby, kGalera };
// How a standby is fed, as an HA manager such as Patroni sets it: asynchronously (off); with
// synchronous_mode (on: a COMMIT is answered once the standby has it, unless the standby is
// gone, when the primary goes on alone); synchronous_mode_strict (strict: never alone).
enum class StandbySync : uint8_t { kOff, kOn, kStrict };

struct SimTopology {
  LedgerShape ledger = LedgerShape::kServer;
  int64_t ledger_lag_ms = 1000;                 // standby: how far behind it applies
  bool ledger_lag_given = false;                // lag-ms= was written
  bool reads_on_standby = false;                // standby: reads=standby
  StandbySync ledger_sync = StandbySync::kOff;  // standby: sync=off|on|strict
  int64_t max_lag_ms = -1;        // standby: max-lag-ms, the lag a failover may promote (-1: any)
  int nodes = 3;                  // galera
  int64_t apply_ms = 0;           // galera: how long after a commit the others apply it
  bool apply_ms_given = false;    // apply-ms= was written
  bool causal_reads = false;      // galera: sync-wait=1
  bool retry_autocommit = true;   // galera: retry-autocommit=1
  bool guards_replica = false;    // guards=replica
  int64_t guards_lag_ms = 0;      // guards=replica: how far its replica is behind
  bool guards_sync = false;       // guards=replica: sync=on, every acknowledged write there
  bool guards_lease = false;      // guards=lease: a consensus store (etcd), locks under leases
  bool guards_lag_given = false;  // lag-ms= was written
  bool queue_dedups = false;      // queue=jetstream
  int64_t queue_window_ms = 120000;  // queue=jetstream: its duplicate window
  std::vector<std::string> texts;    // each --topology as written, for reproduce lines

  bool galera() const { return ledger == LedgerShape::kGalera; }
  bool standby() const { return ledger == LedgerShape::kStandby; }
};

// Parses one PART=SHAPE[:key=value,...] into `out`, over what earlier ones set. A part given
// twice, a key given twice, an unknown shape or key: a usage error.
Status parse_topology(std::string_view text, SimTopology* out);
Status parse_topologies(const std::vector<std::string>& texts, SimTopology* out);

// Completes a run's topology from its faults and checks them together: a failover of the guard
// store implies guards=replica, one of the ledger a standby (each as far behind as the fault
// says), and a failover that names no lag-ms= takes its replica's. Usage errors: a ledger
// failover on a Galera cluster, a standby that nothing reads or promotes, --read-your-writes
// without reads=standby, a deduplicating queue and no republished copy.
Status resolve_topology(SimTopology* topology, std::vector<FaultSpec>* faults,
                        bool read_your_writes);

// In words, for a header: "the ledger's standby 1000 ms behind, read outside the write
// transaction"; "" for the default topology.
std::string topology_words(const SimTopology& topology);
// How the ledger's standby is fed, in words: "1000 ms behind", "synchronous (...)".
std::string standby_feed_words(const SimTopology& topology);

}  // namespace idemlab
