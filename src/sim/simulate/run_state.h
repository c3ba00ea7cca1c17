// What the parts of one simulated run share: its settings, clock and event queue, the state of
// every request (clients) and of every copy of an attempt in flight (deliveries), the attempts
// stepping through the strategy, the connections, the timeline and the counts. The parts
// (client.h, network.h, server.h and a StepRunner) each act on it; simulation.h runs them.
// Internal to src/sim/simulate/.
#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "attempt/fault_site.h"
#include "core/random.h"
#include "sim/shared/request_key.h"
#include "sim/shared/stepper.h"
#include "sim/simulate/events.h"
#include "sim/simulate/simulate.h"

namespace idemlab::sim {

constexpr int64_t kStepMs = 1;              // virtual time one statement takes
constexpr int64_t kLockPollMs = 1;          // a woken waiter tries the lock again after this
constexpr int64_t kLockWaitLimitMs = 1000;  // the server's busy timeout
constexpr int64_t kAccounts = 16;
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

enum class ClientPhase : uint8_t { kIdle, kWaiting, kBackoff, kDone, kGaveUp };

// One request, as its client sees it.
struct RequestRecord {
  int64_t created_ms = -1;
  int64_t finished_ms = -1;
  uint8_t attempts_sent = 0;
  uint8_t keys = 1;  // how many keys the request used (key=fresh adds one per retry)
  ClientPhase phase = ClientPhase::kIdle;
  bool current_resolved = false;  // the current attempt got an answer or timed out
  bool told_success = false;
  bool definitive = false;  // the client got a definitive answer
  bool saw_in_progress_last = false;
  bool inconsistent = false;
  bool token_waiting = false;  // the client's token write found the lock taken
  int16_t token_key = -1;      // the key whose token the client holds (token strategy)
  int8_t first_outcome = -1;   // first definitive answer the server gave, for agreement
  uint16_t first_reason = 0;
  uint32_t statements = 0;
};

// One copy of an attempt, from the network to the server's answer.
struct Delivery {
  bool live = false;
  uint32_t request = 0;
  uint8_t attempt = 0;
  uint8_t copy = 0;
  uint8_t key = 0;
  bool response_lost = false;
  FaultSites sites;                   // where its crash and slow faults land
  int64_t after_commit_pause_ms = 0;  // slow:at=after-commit, once the money is committed
  int64_t busy_ms = 0;
  int64_t wait_start_ms = -1;  // when its step first found a lock taken; -1: not waiting
  bool asleep = false;         // waiting with no step scheduled: woken when a lock is released
  size_t slot = 0;             // its attempt in the stepper
  Connection* connection = nullptr;
  // On a server: a statement sent and not yet answered, whether the server says it waits for a
  // lock, its values (for the timeline), and the server's number for the connection.
  bool in_flight = false;
  bool lock_waiting = false;
  Binds sent_binds;
  int64_t session = 0;
  Answer answer;
};

// The deliveries, in slots reused last freed first: a slot's number names the attempt's lock
// owner ("worker-N"), so the order of reuse is part of a run's bytes.
class Deliveries {
 public:
  uint32_t add();
  void free(uint32_t index) {
    all_[index].live = false;
    free_.push_back(index);
  }
  Delivery& operator[](uint32_t index) { return all_[index]; }
  const Delivery& operator[](uint32_t index) const { return all_[index]; }

 private:
  std::vector<Delivery> all_;
  std::vector<uint32_t> free_;
};

struct RunState {
  RunState(const SimConfig& config, const Strategy& strategy, Pitfall pitfall,
           const SimOptions& options);
  ~RunState();

  const SimConfig& config;
  const RequestKeys keys{config.sources};  // request <-> (source, biz_seq)
  const Strategy& strategy;
  const Pitfall pitfall;
  const SimOptions& options;
  int64_t short_ttl_ms = 0;  // a short-ttl fault's TTL for locks and tokens; 0: none
  ManualClock clock{0};
  EventQueue events{clock};
  Stepper stepper;
  std::vector<RequestRecord> requests;
  Deliveries deliveries;
  Connection client;                              // tokens, status queries, the audit
  Connection busy;                                // the busy fault's other writer
  GuardStore* guard_store = nullptr;              // --redis: where tokens and locks go
  std::vector<std::unique_ptr<Connection>> pool;  // the attempts' connections
  std::vector<Connection*> free_connections;
  std::vector<TimelineEvent> timeline;
  // Counts for the result.
  int64_t attempts_total = 0;
  int64_t deliveries_total = 0;   // copies that reached the server (double submits, redeliveries)
  int64_t lock_waits = 0;         // times a statement found a lock taken and waited
  int64_t released_together = 0;  // on a server: steps that let two or more waiters go

  bool fault_hits(const FaultSpec& fault, uint32_t request, int attempt, Random& random) const {
    if (fault.nth != 0) return attempt == 1 && request + 1 == static_cast<uint64_t>(fault.nth);
    return random.chance(fault.probability);
  }
  bool traced(uint32_t request) const {
    return options.timeline &&
           (options.timeline_request == 0 || options.timeline_request == request + 1);
  }
  void note(uint32_t request, int attempt, int copy, const char* actor, std::string what,
            std::string detail = {}, std::string result = {}, std::string fault = {});
  // bench-sim's recorder: a statement sent on `connection` (SimOptions::record).
  void record(const Connection& connection, Stmt stmt, const Binds& binds);
  // Where a delivery's statement runs: the guard store (Redis) for tokens and locks, if in use.
  const StatementRunner& runner_for(const Delivery& delivery, Stmt stmt) const {
    if (guard_store && statement_is_guard(stmt)) return *guard_store;
    return *delivery.connection;
  }
};

}  // namespace idemlab::sim
