// Explore: every interleaving of K concurrent duplicate attempts, each replayed from scratch on
// a fresh copy of a ledger with one SQLite connection per attempt.
//
// The unit of interleaving is a step: one statement outside a transaction, or a whole write
// transaction (BEGIN IMMEDIATE ... COMMIT/ROLLBACK). Treating a transaction as one step loses
// no behaviour: while one attempt holds SQLite's write lock, every other write waits, and every
// other read sees the same committed snapshot wherever it falls inside the transaction.
//
// On a server (ExploreConfig::server, explore_server.cpp) a step is one statement, and two
// steps that commute (commuting_steps.h) are tried in one order unless all_orders is set.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "db/locator.h"
#include "db/redis/redis_locator.h"
#include "sim/shared/timeline.h"
#include "strategies/strategy.h"

namespace idemlab {

struct ExploreConfig {
  int duplicates = 2;
  int64_t lock_ttl_ms = 30000;  // the clock advances 1 ms per statement
  int64_t max_interleavings = 100000;
  // --crash: also kill each attempt after each of its statements, in every interleaving; a
  // crashed run ends with one late retry, alone, after the lock's TTL.
  bool crash = false;
  // --overdraw: the request asks for more than the payer holds, so its first attempt is
  // rejected, and every repeat must be rejected too.
  bool overdraw = false;
  // Which interleaving to replay as `picked`: 0, none (the first breaking one is always
  // replayed); N > 0, the Nth tried; kTightestRace, the first of those whose attempts take
  // turns most often.
  int64_t pick = 0;
  // --db: explore on this PostgreSQL or MariaDB server (in a scratch ledger of its own there)
  // at `isolation`, a statement a step; none: on SQLite, a write transaction a step.
  std::optional<Locator> server;
  Isolation isolation = Isolation::kDefault;
  bool unique_index = false;  // --unique-index (StrategyInfo::offers_unique_index)
  // --redis: the token and lock-table strategies keep their tokens and locks in this Redis,
  // in keys of the run's own, emptied between interleavings (sim/scratch_redis.h).
  std::optional<RedisLocator> redis;
  // --all-orders: on a server, try both orders of steps that commute too (commuting_steps.h);
  // without it, one order of each such pair is tried.
  bool all_orders = false;
  // --failover: the token and lock-table strategies keep their tokens and locks in the
  // simulator's replicated store (sim/shared/replicated_guards.h), and every interleaving is
  // tried again with a failover right after each guard write in turn.
  bool failover = false;
  // --failover=ledger: every interleaving is tried again with the ledger failing over right
  // after the run's first commit that changed a row, then its second, and so on; the standby
  // that takes over never received that commit. With guards_apart (--topology guards=replica)
  // token and lock-table keep their tokens and locks in the simulator's guard store, which
  // stays up; without it, in the ledger, where they fail over with the money.
  bool ledger_failover = false;
  bool guards_apart = false;
  // --topology ledger=standby:reads=standby: the lookups outside the write transaction go to the
  // ledger's standby (as in the simulator), and every interleaving is tried with the standby
  // applying none of the run's commits that changed a row, then the first, then the first
  // two, ... (its link cut after them: LaggingReplica::cut_after)
  bool replica_lag = false;
  // --topology ledger=galera: the ledger is the simulator's Galera cluster of this many nodes
  // (sim/shared/galera_model.h), each twin on the next, and every interleaving is tried with
  // the appliers applying each commit at once, then 1 ms (a statement) after it, then 2 ms,
  // ... until no commit of any run is applied before the run ends (0: no cluster).
  int galera_nodes = 0;
  bool causal_reads = false;     // sync-wait=1
  bool retry_autocommit = true;  // retry-autocommit=1
};
inline constexpr int64_t kTightestRace = -1;

// Where the faults of one run land. A crash: attempt (0-based) dies right after its `after`-th
// statement. A failover (--failover): the guard store's primary dies right after the run's
// `failover_after`-th guard write, which its replica never received. A failover of the ledger
// (--failover=ledger): its primary dies right after the run's `ledger_failover_after`-th commit
// that changed a row, which its standby never received.
struct FaultPoint {
  int attempt = -1;  // -1: no crash
  int after = 0;
  int failover_after = 0;         // 0: no failover of the guard store
  int ledger_failover_after = 0;  // 0: no failover of the ledger
  // reads=standby: the standby applies the run's first `replica_applies` commits that changed
  // a row and none after (-1: no standby). A commit that changed nothing moves no standby.
  int replica_applies = -1;
  // ledger=galera: the other nodes' appliers apply each commit this many ms (statements)
  // after it (-1: at once, as one ledger would).
  int apply_lag_ms = -1;
};

struct ExploreResult {
  std::string strategy;
  Pitfall pitfall = Pitfall::kNone;
  int duplicates = 0;
  int64_t interleavings = 0;
  int64_t breaking = 0;
  bool truncated = false;  // stopped at max_interleavings
  // On a server: interleavings in which a statement waited for another attempt's lock, in
  // which the server ended a wait as a deadlock, and in which it refused to serialise.
  int64_t blocking = 0;
  int64_t deadlocking = 0;
  int64_t unserializable = 0;
  int64_t unique_violations = 0;  // ... and in which a write met a unique key (any engine)
  // On a server: runs made again because the server answered a prefix another way than the
  // run it came from (several waiters woken at once race for a row), and branches skipped
  // because it never answered it the same way again (explore.cpp, replay()).
  int64_t replays_repeated = 0;
  int64_t branches_not_replayed = 0;
  // On a server: times a link was lost under the run (a failover, a node gone) and the run
  // connected again through the topology, running the interleaving it cut again from its start.
  int64_t relinks = 0;
  // On a server, the first interleaving (without --crash) the server ended as a deadlock: which
  // it was (1-based, in the order tried), its schedule, the attempt (0-based) the server chose
  // as its victim, and its timeline.
  int64_t first_deadlock_index = 0;
  std::vector<int> first_deadlock_schedule;
  int first_deadlock_victim = -1;
  std::vector<TimelineEvent> first_deadlock;
  Engine engine = kEmbeddedEngine;  // where it ran
  std::string isolation;            // the level the server ran them at ("" on SQLite)
  int nodes = 0;  // a Galera cluster's nodes (a real one, or the model), each twin on the next
  std::string guard_store;         // --redis, when the strategy used it: its URL
  bool fails_over = false;         // --failover, when the strategy keeps tokens or locks apart
  bool ledger_fails_over = false;  // --failover=ledger
  bool guards_apart = false;       // tokens and locks in a store that stays up (guards=replica)
  bool replica_lag = false;        // ledger=standby:reads=standby
  std::map<std::string, int64_t> by_invariant;  // broken invariant -> interleavings
  std::vector<int> first_breaking_schedule;     // attempt index (0-based) per step
  FaultPoint first_breaking_point;              // with --crash: where it crashed
  std::vector<std::string> first_breaking_invariants;
  std::vector<TimelineEvent> first_breaking;
  // Whether the first breaking interleaving shown is the first that breaks only because of the
  // fault or topology asked for (--crash, --failover, reads on a lagging standby): its schedule,
  // run without that fault point, breaks nothing. Such an interleaving is shown before a plain
  // race that breaks without it.
  bool first_breaking_by_fault = false;
  // Working state of the walk: the schedules that broke with no fault point, and the first
  // that broke only with one.
  std::set<std::vector<int>> plain_breaking;
  std::vector<int> fault_breaking_schedule;
  FaultPoint fault_breaking_point;
  std::vector<std::string> fault_breaking_invariants;
  // The interleaving ExploreConfig::pick asked for (picked_index 0: none was).
  int64_t picked_index = 0;  // 1-based, in the order they were tried
  std::vector<int> picked_schedule;
  FaultPoint picked_point;
  std::vector<std::string> picked_invariants;  // empty: it breaks nothing
  std::vector<TimelineEvent> picked;
};

Status explore(const Strategy& strategy, Pitfall pitfall, const ExploreConfig& config,
               ExploreResult* out);

}  // namespace idemlab
