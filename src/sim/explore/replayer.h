// What explore's two replayers share: one interleaving's run, how it is judged, and the
// request every attempt sends. sqlite_replayer.cpp replays schedules on SQLite (a whole write
// transaction a step), server_replayer.cpp on PostgreSQL and MariaDB (a statement a step).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "db/guard_store.h"
#include "sim/explore/explore.h"
#include "sim/shared/scratch_redis.h"
#include "sim/shared/stepper.h"

namespace idemlab {

struct ExploreRun {
  std::vector<int> schedule;  // chosen attempt per step
  // Per step, the attempts that could take it: those enabled, less those asleep (on a server,
  // explore_server.cpp), in the order they are tried.
  std::vector<std::vector<int>> enabled;
  std::vector<std::string> broken;  // invariants this interleaving breaks
  std::vector<TimelineEvent> timeline;
  bool crashed = false;      // the crash point was reached
  bool failed_over = false;  // the failover point was reached (guard store or ledger)
  // reads=standby: a commit the replica never applied was made.
  bool replica_missed = false;
  // ledger=galera: an applier applied a commit, its lag after it, before the run ended (a
  // longer lag would have found the run otherwise).
  bool lag_landed = false;
  bool waited = false;  // a statement waited for another attempt's lock (servers)
  // The server ended a wait as a deadlock, or a cluster (real, or the model) refused a COMMIT
  // at certification; the first attempt it turned away.
  bool deadlocked = false;
  int victim = -1;
  bool serialized = false;        // the server refused to serialise a transaction (servers)
  bool unique_violation = false;  // a write met a unique key
  // On a server: every order from some step on was tried elsewhere (its steps commute with
  // those of a branch already taken); the run is neither judged nor counted.
  bool redundant = false;
  // On a server: the step (1-based) at which a replay met another answer than the run its
  // prefix came from (0: none). The run then goes on one way, only to leave the connections
  // clean, and is neither judged nor counted.
  int diverged_step = 0;
};

// Replays one schedule from a fresh ledger: the attempt `prefix` names at each step, then the
// first enabled one, to the end.
class Replayer {
 public:
  virtual ~Replayer() = default;
  virtual Status run(const std::vector<int>& prefix, FaultPoint crash, bool record,
                     ExploreRun* out) = 0;
  // The level the attempts' transactions ran at, as the server reports it ("" on SQLite).
  virtual std::string isolation() const { return {}; }
  // On a server: times it connected again after a lost link (ExploreResult::relinks).
  virtual int64_t relinks() const { return 0; }
};

// --redis, for a strategy that keeps tokens or locks: explore's own keys in Redis, the store they
// go to in every run, emptied before each run (the token is then issued into it again). The
// simulator's replicated store (--failover, guards=replica) is each SQLite run's own, one of its
// Replicas.
class ExploreRedis {
 public:
  Status open(const Strategy& strategy, const ExploreConfig& config);
  GuardStore* store() const { return store_; }  // nullptr: no Redis for this strategy
  Status reset() { return store_ ? redis_.reset() : Status::ok(); }
  // Commands that met a lost link so far (a failover behind the Sentinels): ScratchRedis
  // connects again by itself.
  int64_t losses() const { return store_ ? redis_.losses() : 0; }

 private:
  ScratchRedis redis_;
  GuardStore* store_ = nullptr;
};

// Runs one interleaving (`once`) again while a link was lost under it (a failover, a node
// gone): a cut run is not judged. A loss is a link-loss status from `once`, `lost()` after it
// (a statement outside the flights), or a Redis command that met one. `relink` connects the
// ledger's links again through the topology (Redis's reconnect by themselves), counted in
// `relinks`; a fourth loss in a row on one interleaving ends the run with that loss.
Status run_through_failovers(const std::function<Status()>& once, const std::function<bool()>& lost,
                             const std::function<Status()>& relink, const ExploreRedis& redis,
                             int64_t* relinks);

// Every interleaving with one crash point (none: crash.attempt < 0), added to `result`'s
// counts; sets `reached` when some run got to the crash point (explore_walk.cpp).
Status explore_schedules(Replayer& explorer, FaultPoint crash, const ExploreConfig& config,
                         ExploreResult* result, bool* reached);
// The timeline of one interleaving already tried, run again to record it.
Status replay_timeline(Replayer& explorer, const std::vector<int>& schedule, FaultPoint crash,
                       ExploreResult* result, std::vector<TimelineEvent>* out);

// The request the duplicates carry (its token is filled in once issued).
TransferRequest explore_request(const ExploreConfig& config, const std::string& token);
// Attempt `attempt`'s options: the pitfall, the token, and its own lock owner.
StrategyOptions explore_options(Pitfall pitfall, const std::string& token,
                                const ExploreConfig& config, int attempt);
// The token every run's ledger holds, issued at the same instant with the same entropy, so
// its text is the same in every run.
Status issue_explore_token(StatementRunner& store, std::string* token);
// The run's clock starts here (tokens are issued before it); timelines count from it.
inline constexpr int64_t kExploreStartMs = 1'000'000;

// Which invariants the finished run broke, from the journal and the answers (and, with
// `record`, the answers appended to its timeline at `at_ms`).
Status judge_explore_run(Connection& connection, const Stepper& stepper, bool record, int64_t at_ms,
                         ExploreRun* run);

// After a crash the client retries once more, alone, once every lease has lapsed (the lock's
// TTL): what a patient client finally gets. Runs on `connection`, as attempt K+1, with its
// tokens and locks in `guards` if not null.
Status late_explore_retry(Connection& connection, GuardStore* guards, ManualClock& clock,
                          Stepper& stepper, const Strategy& strategy, Pitfall pitfall,
                          const std::string& token, const ExploreConfig& config, bool record,
                          ExploreRun* run);

// The text a step's statement runs as: in the guard store (Redis) for tokens and locks, if one
// is in use, else on `connection`.
inline std::string_view statement_text_on(const Connection& connection, const GuardStore* guards,
                                          Stmt stmt) {
  return goes_to_guards(guards, stmt) ? guards->statement_text(stmt)
                                      : connection.statement_text(stmt);
}

}  // namespace idemlab
