// The simulator: many requests from retrying clients over a faulty network to a server that
// runs a strategy against a real SQLite ledger, all on one virtual clock and one seed. Same
// config and seed, same result, byte for byte.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "db/locator.h"
#include "db/redis/redis_locator.h"
#include "db/schema/ledger_file.h"
#include "sim/shared/scenario.h"
#include "sim/shared/timeline.h"
#include "strategies/strategy.h"

namespace idemlab {

struct SimResult {
  std::string strategy;
  Pitfall pitfall = Pitfall::kNone;
  std::vector<std::string> sources;  // who sent the requests
  int64_t requests = 0;
  // Counted from the journal: every request is in exactly one of these three.
  int64_t moved_once = 0;
  int64_t moved_twice_or_more = 0;
  int64_t not_moved = 0;
  // Problems, counted per request:
  int64_t never_moved = 0;            // the client was told it succeeded; the journal says no
  int64_t stuck = 0;                  // never moved; the client gave up on in_progress answers
  int64_t unknown_to_client = 0;      // moved, but the client gave up without an answer
  int64_t refused = 0;                // never moved; a definitive refusal (rejected, token_*, ...)
  int64_t gave_up = 0;                // never moved; the client gave up with no final answer
                                      // (busy, timeouts): with never_moved, stuck and refused,
                                      // every request of not_moved in exactly one
  int64_t inconsistent_answers = 0;   // two definitive answers to one request disagree
  double attempts_per_request = 0;    // attempts each client sent
  double deliveries_per_request = 0;  // copies that reached the server: every attempt that was
                                      // not lost, times its double submits and redeliveries
  double statements_per_request = 0;
  int64_t lock_waits = 0;  // times a statement found the write lock taken and waited
  // On a server: steps that let two or more waiting statements go at once. Which goes first is
  // the server's choice, and the run may then not replay byte for byte.
  int64_t released_together = 0;
  int64_t latency_ms_p50 = 0;
  int64_t latency_ms_p99 = 0;
  int64_t virtual_ms = 0;  // when the last event happened
  bool audit_ok = true;
  std::vector<std::string> audit_violations;  // kinds, one per violation found
  uint64_t seed = 0;
  std::vector<TimelineEvent> timeline;
  // With a timeline of one request (--timeline-request N): what became of it, in words.
  std::string traced_verdict;
  // With SimOptions::find_first: the first request (1-based) that verdict counts, or 0.
  int64_t first_found = 0;
  Engine engine = kEmbeddedEngine;  // where it ran
  std::string isolation;            // the level the server ran at ("" on SQLite)
  // On a Galera cluster: how many nodes the run spread its connections over; 0 elsewhere.
  int nodes = 0;
  // compare --backend: "sqlite" or the server's URL as shown (no password); "" otherwise.
  std::string backend;
  // --redis, for a strategy that keeps tokens or locks: the Redis URL as shown; "" otherwise.
  std::string guard_store;
  // A failover fault: times the guard store's replica took over, and the writes it had not
  // received (tokens issued or consumed, locks taken or let go, lost with its primary).
  int64_t failovers = 0;
  int64_t guard_writes_lost = 0;
  // A failover of the ledger (of=ledger|both): times its replica took over, the commits it had
  // not received (acknowledged or not, lost), and the transactions under way that died.
  int64_t ledger_failovers = 0;
  int64_t commits_lost = 0;
  int64_t transactions_cut = 0;
  // ...and the failovers that promoted nobody: the standby was past the topology's max-lag-ms.
  int64_t promotions_refused = 0;
  // ledger=galera: the cluster's nodes, and the COMMITs it refused (1213, answered busy).
  int galera_nodes = 0;
  int64_t certification_failures = 0;
  // On a server that moved under the run (a failover, a node gone): the attempts whose
  // connection it cut (each died with no answer), and the times the run connected again.
  int64_t links_lost = 0;
  int64_t relinks = 0;
  // --redis: guard commands that met a lost link (a failover behind the Sentinels), each
  // costing its attempt its answer; the store then connected again through the topology.
  int64_t guard_links_lost = 0;
  // queue=jetstream: its window, and the republished copies it dropped as duplicates.
  int64_t queue_window_ms = 0;
  int64_t dropped_by_broker = 0;
};

// One statement the simulation ran, for replaying the same work with no simulator around it
// (scripts/bench-sim). Connection 0 is the client's, 1 the busy fault's, then the server pool.
struct RecordedStatement {
  uint32_t connection = 0;
  Stmt stmt = Stmt::kCount;
  Binds binds;
};

struct SimOptions {
  std::vector<RecordedStatement>* record = nullptr;
  bool timeline = false;
  int64_t timeline_request = 0;  // 0: every request
  std::string_view find_first;   // a verdict's name: fills SimResult::first_found
  // Called as requests finish, a hundredth of the run at a time (at most every 1,000).
  std::function<void(int64_t done, int64_t total)> progress;
  // --db: run on this PostgreSQL or MariaDB server, in a scratch ledger of its own there, at
  // `isolation`; nullptr: in a scratch SQLite ledger in memory.
  const Locator* server = nullptr;
  Isolation isolation = Isolation::kDefault;
  // --redis: the token and lock-table strategies keep their tokens and locks in this Redis, in
  // keys of the run's own that expire on its virtual clock (sim/shared/scratch_redis.h); nullptr:
  // in the ledger.
  const RedisLocator* redis = nullptr;
  // Whoever runs several simulations on one server at once (compare) checks the connections
  // they need together; a lone run checks its own (sim/shared/connections.h).
  bool connections_checked = false;
};

// Whether a row breaks what its strategy promises: a guarded strategy run without --pitfall
// that moved money twice, told success for nothing, left a request stuck, answered
// inconsistently, or failed its audit (--fail-on violation).
bool breaks_guarantee(const SimResult& result);

Status simulate(const SimConfig& config, const Strategy& strategy, Pitfall pitfall,
                const SimOptions& options, SimResult* out);

// The accounts a simulation starts from (16 of them).
std::vector<OpeningBalance> sim_opening_balances();

}  // namespace idemlab
