// The simulation's parts, shared by the files that implement it (engine.cpp: the event loop
// and the ledger; client.cpp: retrying clients; network.cpp: where faults land; server.cpp:
// attempts stepping through a strategy; lock_queue.cpp: the write-lock waiters; verdicts.cpp:
// the verdicts). Internal to src/sim/: nothing outside includes it.
#pragma once

#include <fmt/format.h>

#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <queue>
#include <utility>

#include "attempt/fault_site.h"
#include "attempt/phase.h"
#include "core/clock.h"
#include "core/limits.h"
#include "core/random.h"
#include "sim/engine.h"
#include "sim/request_key.h"
#include "sim/scratch_ledger.h"
#include "sim/scratch_redis.h"
#include "sim/scratch_server.h"
#include "sim/stepper.h"

namespace idemlab::sim {

constexpr int64_t kStepMs = 1;              // virtual time one statement takes
constexpr int64_t kLockPollMs = 1;          // a woken waiter tries the lock again after this
constexpr int64_t kLockWaitLimitMs = 1000;  // the server's busy timeout
constexpr int64_t kAccounts = 16;
constexpr int64_t kOpeningBalanceMinor = 1'000'000'000'000;
constexpr int64_t kRedeliveryGapMs = 40;  // a queue redelivers after its ack timeout

enum class Purpose : uint64_t { kRequest = 1, kFaults, kNetwork, kBackoff, kToken };

inline uint64_t mix(uint64_t seed, uint64_t request, uint64_t attempt, Purpose purpose) {
  uint64_t x = seed * 0x9e3779b97f4a7c15ULL ^ (request + 1) * 0xbf58476d1ce4e5b9ULL ^
               (attempt + 1) * 0x94d049bb133111ebULL ^ static_cast<uint64_t>(purpose);
  return x;
}

enum class ClientPhase : uint8_t { kIdle, kWaiting, kBackoff, kDone, kGaveUp };

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
  int64_t wait_start_ms = -1;  // when its step first found the write lock taken; -1: not waiting
  bool asleep = false;         // waiting with no step scheduled: woken when a lock is released
  size_t slot = 0;
  Connection* connection = nullptr;
  // On a server: a statement sent and not yet answered, whether the server says it waits for a
  // lock, its values (for the timeline), and the server's number for the connection.
  bool in_flight = false;
  bool lock_waiting = false;
  Binds sent_binds;
  int64_t session = 0;
  Answer answer;
};

enum class Kind : uint8_t {
  kStart,
  kSend,
  kArrive,
  kStep,
  kWaitLimit,
  kAnswer,
  kTimeout,
  kRetry,
  kBusyRelease
};

struct Event {
  int64_t at;
  uint64_t seq;
  Kind kind;
  uint32_t a;
  uint32_t b;
  bool operator>(const Event& other) const {
    return at != other.at ? at > other.at : seq > other.seq;
  }
};

class Simulation {
 public:
  Simulation(const SimConfig& config, const Strategy& strategy, Pitfall pitfall,
             const SimOptions& options)
      : config_(config),
        strategy_(strategy),
        pitfall_(pitfall),
        options_(options),
        requests_(static_cast<size_t>(config.requests)) {
    for (const FaultSpec& fault : config_.faults)
      if (fault.kind == FaultKind::kShortTtl) short_ttl_ms_ = fault.ms;
  }
  ~Simulation() {
    guard_store_ = nullptr;
    pool_.clear();
    client_ = Connection();
    busy_ = Connection();
  }

  Status run(SimResult* out);

 private:
  Status open_ledger_files();
  Status open_guard_store();
  // Where a delivery's statement runs: the guard store (Redis) for tokens and locks, if in use.
  Connection& connection_for(const Delivery& delivery, Stmt stmt) const {
    return guard_store_ && statement_is_guard(stmt) ? *guard_store_ : *delivery.connection;
  }
  void record(const Connection& connection, Stmt stmt, const Binds& binds);
  Connection* take_connection();
  // Every event is scheduled `delay_ms` from now; add_ms() proves the sum cannot overflow.
  void schedule_in(int64_t delay_ms, Kind kind, uint32_t a, uint32_t b = 0) {
    events_.push(Event{add_ms(clock_.now_ms(), delay_ms), next_seq_++, kind, a, b});
  }
  TransferRequest make_request(uint32_t request, uint8_t key) const;
  std::string token_for(uint32_t request, uint8_t key) const;
  bool issue_token_for(uint32_t request, uint8_t key);
  bool fault_hits(const FaultSpec& fault, uint32_t request, int attempt, Random& random) const {
    if (fault.nth != 0) return attempt == 1 && request + 1 == static_cast<uint64_t>(fault.nth);
    return random.chance(fault.probability);
  }
  bool traced(uint32_t request) const {
    return options_.timeline &&
           (options_.timeline_request == 0 || options_.timeline_request == request + 1);
  }
  void note(uint32_t request, int attempt, int copy, const char* actor, std::string what,
            std::string detail = {}, std::string result = {}, std::string fault = {});
  // A step that ran: its values, and its SQL kept apart (--sql).
  void note_step(const Delivery& delivery, const ExecutedStep& done, const Binds& binds);

  // crash without after=: a statement number drawn from the seed, 1 to the number of steps the
  // strategy can reach; an attempt that ends sooner crashes after its last statement, so every
  // crash drawn happens at a step the attempt really reached.
  uint16_t crash_point(Random& random) const {
    const auto span = reachable_steps(strategy_.info(), pitfall_).size();
    return static_cast<uint16_t>(random.between(1, static_cast<int64_t>(span)));
  }
  void crash(uint32_t index, std::string what);
  void start_request(uint32_t worker);
  void send_attempt(uint32_t request);
  struct Copies {
    int submitted = 1;    // identical submissions at once (double-submit)
    int redelivered = 0;  // later copies from a queue (redeliver)
  };
  Copies draw_copies(uint32_t request, int attempt, Random& faults) const;
  void dispatch(uint32_t request, int attempt, uint8_t key, Copies copies, Random& faults,
                Random& network);
  bool place_faults(Delivery& delivery, uint32_t request, int attempt, Random& faults);
  uint32_t new_delivery(uint32_t request, uint8_t attempt, uint8_t copy, uint8_t key);
  void arrive(uint32_t delivery);
  void step(uint32_t delivery);
  // What follows a step that ran, on SQLite or on a server: notes, faults, the next step.
  void after_step(uint32_t delivery, const ExecutedStep& done, const Binds& traced_binds);
  // On a server (server_flights.cpp): a step is sent, then every statement in flight settles.
  bool on_server() const { return options_.server != nullptr; }
  // The busy fault's other writer: SQLite's write lock, or on a server every account row (if
  // no attempt holds one: NOWAIT, as SQLite's BEGIN IMMEDIATE fails at once when taken).
  static constexpr const char* kBusyServerSql = "SELECT 1 FROM account FOR UPDATE NOWAIT";
  bool take_busy_lock();
  void release_busy_lock();
  void wait_limit(uint32_t delivery, int64_t wait_start_ms);
  Status open_server_ledger();
  void send_step(uint32_t delivery);
  void settle_flights(uint32_t cause);
  std::vector<bool> ask_parked(const std::vector<uint32_t>& deliveries);
  std::vector<bool> ask_lock_waits(const std::vector<int64_t>& sessions);
  bool settle_flight(uint32_t delivery, bool still_waiting);
  bool waits_in_cycle();
  std::vector<int64_t> waiting_sessions() const;
  void transaction_may_end(int64_t session);
  bool holders_stale(const std::vector<int64_t>& waiting) const;
  void await_server();
  void take_answer(uint32_t delivery, StepResult result);
  void cancel_wait(uint32_t delivery);
  void schedule_step(uint32_t delivery);
  void wake_next();
  void update_lock_holder(uint32_t index, bool holds);
  void server_done(uint32_t delivery, std::optional<Answer> answer);
  void answer(uint32_t delivery);
  void timeout(uint32_t request, uint32_t attempt);
  void retry(uint32_t request);
  void back_off(uint32_t request);
  void finish(uint32_t request, ClientPhase phase);
  void record_answer(uint32_t request, const Answer& answer);
  uint16_t reason_id(const std::string& reason);
  Status verdicts(SimResult* out);

  const SimConfig& config_;
  const RequestKeys keys_{config_.sources};  // request <-> (source, biz_seq)
  const Strategy& strategy_;
  const Pitfall pitfall_;
  const SimOptions& options_;
  int64_t short_ttl_ms_ = 0;
  ManualClock clock_{0};
  ScratchLedger ledger_;
  ScratchServer server_ledger_;  // on a server, instead of ledger_
  ScratchRedis redis_;           // --redis: where tokens and locks go, for strategies with them
  Connection* guard_store_ = nullptr;  // &redis_.store() when in use
  std::vector<uint32_t> in_flight_;    // deliveries with a statement on a server, in order
  Connection client_;                  // tokens and status queries
  Connection busy_;                    // the other writer of the busy fault
  bool busy_held_ = false;
  std::vector<std::unique_ptr<Connection>> pool_;
  std::vector<Connection*> free_connections_;
  Stepper stepper_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  uint64_t next_seq_ = 0;
  std::vector<RequestRecord> requests_;
  std::vector<Delivery> deliveries_;
  std::vector<uint32_t> free_deliveries_;
  static constexpr uint32_t kNoHolder = UINT32_MAX;
  static constexpr uint32_t kBusyHolder = UINT32_MAX - 1;
  std::deque<uint32_t> sleepers_;     // deliveries waiting for the write lock, longest first
  uint32_t lock_holder_ = kNoHolder;  // the delivery whose open transaction holds the lock
  uint32_t woken_ = kNoHolder;        // the sleeper woken to try the lock next
  std::vector<std::string> reasons_{""};
  std::vector<uint32_t> worker_request_;
  uint32_t next_request_ = 0;
  int64_t finished_ = 0;
  int64_t lock_waits_ = 0;
  int64_t released_ = 0;  // waiting statements the step being settled let go
  // Sessions whose transaction may have ended since the server was last asked who waits for
  // whom (an answer outside a transaction or an error, a crash, an attempt's end, the busy
  // writer's release), and that answer: whom each waiting session waits for (server_flights.cpp).
  std::vector<int64_t> ended_;
  std::map<int64_t, std::vector<int64_t>> holders_;
  int64_t released_together_ = 0;  // steps that let two or more go (server_flights.cpp)
  int64_t attempts_total_ = 0;
  int64_t deliveries_total_ = 0;  // copies that reached the server (double submits, redeliveries)
  std::vector<TimelineEvent> timeline_;
};

}  // namespace idemlab::sim
