// What one simulated run is asked to do, read by every part and changed by none: the scenario
// and its faults, the strategy and its pitfall, the options, how requests map to keys, and the
// constants of the model. Internal to src/sim/simulate/.
#pragma once

#include <fmt/format.h>

#include <string>

#include "core/random.h"
#include "sim/shared/request_key.h"
#include "sim/simulate/simulate.h"

namespace idemlab::sim {

constexpr int64_t kStepMs = 1;              // virtual time one statement takes
constexpr int64_t kLockPollMs = 1;          // a woken waiter tries the lock again after this
constexpr int64_t kLockWaitLimitMs = 1000;  // the server's busy timeout
constexpr int64_t kAccounts = 16;
static_assert(kAccounts <= 100, "account names have two digits");
// Account `index`'s name: "a00" to "a15" (made at every request, so not by a format string).
inline std::string account_name(int64_t index) {
  return {'a', static_cast<char>('0' + index / 10), static_cast<char>('0' + index % 10)};
}
constexpr int64_t kOpeningBalanceMinor = 1'000'000'000'000;
constexpr int64_t kRedeliveryGapMs = 40;  // a queue redelivers after its ack timeout

// What a random draw is for: each (request, attempt, purpose) has a source of its own, so the
// schedule of faults and delays is the same whichever strategy runs.
enum class Purpose : uint64_t { kRequest = 1, kFaults, kNetwork, kBackoff, kToken };

inline uint64_t mix(uint64_t seed, uint64_t request, uint64_t attempt, Purpose purpose) {
  uint64_t x = seed * 0x9e3779b97f4a7c15ULL ^ (request + 1) * 0xbf58476d1ce4e5b9ULL ^
               (attempt + 1) * 0x94d049bb133111ebULL ^ static_cast<uint64_t>(purpose);
  return x;
}

struct RunSettings {
  RunSettings(const SimConfig& run_config, const Strategy& run_strategy, Pitfall run_pitfall,
              const SimOptions& run_options)
      : config(run_config), strategy(run_strategy), pitfall(run_pitfall), options(run_options) {
    for (const FaultSpec& fault : config.faults) {
      if (fault.kind == FaultKind::kShortTtl) short_ttl_ms = fault.ms;
      if (fault.kind == FaultKind::kFailover) ledger_fails_over |= fails_over_ledger(fault.of);
    }
    const SimTopology& topology = config.topology;
    if (topology.standby() && topology.reads_on_standby) replica_lag_ms = topology.ledger_lag_ms;
    if (topology.galera()) galera_nodes = topology.nodes;
  }

  const SimConfig& config;
  const RequestKeys keys{config.sources};  // request <-> (source, biz_seq)
  const Strategy& strategy;
  const Pitfall pitfall;
  const SimOptions& options;
  int64_t short_ttl_ms = 0;  // a short-ttl fault's TTL for locks and tokens; 0: none
  // A failover fault of the ledger (of=ledger|both): its standby follows every write, so that
  // it can be promoted.
  bool ledger_fails_over = false;
  // Reads on the ledger's standby (ledger=standby,reads=standby): how far it is behind; -1: none.
  int64_t replica_lag_ms = -1;
  // ledger=galera: how many nodes the ledger's cluster has; 0: one ledger.
  int galera_nodes = 0;
  bool galera() const { return galera_nodes > 0; }
  // guards=replica (or a failover of the guard store): tokens and locks live in a replicated
  // store apart from the ledger.
  bool guards_replica() const { return config.topology.guards_replica; }
  // The node (0-based) a delivery's attempt runs on: the next for each request, copy and
  // attempt, so that twins and a retry each go to another node.
  int node_for(uint32_t request, int attempt, int copy) const {
    if (!galera()) return 0;
    return static_cast<int>((request + static_cast<uint32_t>(attempt - 1 + copy)) %
                            static_cast<uint32_t>(galera_nodes));
  }

  // Whether `fault` hits attempt `attempt` of `request` (nth= its first attempt only).
  bool fault_hits(const FaultSpec& fault, uint32_t request, int attempt, Random& random) const {
    if (fault.nth != 0) return attempt == 1 && request + 1 == static_cast<uint64_t>(fault.nth);
    return random.chance(fault.probability);
  }
  int64_t lock_ttl_ms() const { return short_ttl_ms ? short_ttl_ms : config.lock_ttl_ms; }
  int64_t token_ttl_ms() const { return short_ttl_ms ? short_ttl_ms : config.token_ttl_ms; }
};

}  // namespace idemlab::sim
