// The discrete-event simulation. Events are ordered by (virtual time, sequence number), so the
// order is total and replayable; randomness is derived per (request, attempt, purpose) from the
// seed, so the schedule of faults and delays is the same whichever strategy runs.
#include "sim/engine.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <memory>
#include <queue>

#include "core/clock.h"
#include "core/interrupt.h"
#include "core/limits.h"
#include "core/random.h"
#include "db/ledger_file.h"
#include "ledger/audit.h"
#include "ledger/ledger.h"
#include "server/serve.h"
#include "server/trace.h"
#include "sim/budget.h"
#include "sim/percentile.h"
#include "sim/stepper.h"

namespace idemlab {

namespace {

constexpr int64_t kStepMs = 1;              // virtual time one statement takes
constexpr int64_t kLockPollMs = 1;          // a woken waiter tries the lock again after this
constexpr int64_t kLockWaitLimitMs = 1000;  // the server's busy timeout
constexpr int64_t kAccounts = 16;
constexpr int64_t kOpeningBalanceMinor = 1'000'000'000'000;
constexpr int64_t kRedeliveryGapMs = 40;  // a queue redelivers after its ack timeout

enum class Purpose : uint64_t { kRequest = 1, kFaults, kNetwork, kBackoff, kToken };

uint64_t mix(uint64_t seed, uint64_t request, uint64_t attempt, Purpose purpose) {
  uint64_t x = seed * 0x9e3779b97f4a7c15ULL ^ (request + 1) * 0xbf58476d1ce4e5b9ULL ^
               (attempt + 1) * 0x94d049bb133111ebULL ^ static_cast<uint64_t>(purpose);
  return x;
}

enum class ClientPhase : uint8_t { kIdle, kWaiting, kBackoff, kDone, kGaveUp };

struct RequestState {
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
  const std::string* crash_step = nullptr;  // crash after this step ("": see crash_after)
  uint16_t crash_after = 0;  // crash:after= left out: after this many statements, or the last
  uint16_t statements_run = 0;
  Phase crash_phase = Phase::kNone;
  const std::string* slow_step = nullptr;
  Phase slow_phase = Phase::kNone;
  int64_t slow_ms = 0;
  int64_t after_commit_pause_ms = 0;  // slow:at=after-commit, once the money is committed
  PhaseTracker phases;
  int64_t busy_ms = 0;
  int64_t wait_start_ms = -1;  // when its step first found the write lock taken; -1: not waiting
  bool asleep = false;         // waiting with no step scheduled: woken when a lock is released
  size_t slot = 0;
  Connection* connection = nullptr;
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
  Simulation(const SimConfig& config, const Strategy& strategy, bool pitfall,
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
    pool_.clear();
    client_ = Connection();
    busy_ = Connection();
    if (!folder_.empty()) std::filesystem::remove_all(folder_);
  }

  Status run(SimResult* out);

 private:
  Status open_ledger_files();
  void record(const Connection& connection, Stmt stmt, const Binds& binds);
  Connection* take_connection();
  // Every event is scheduled `delay_ms` from now; add_ms() proves the sum cannot overflow.
  void schedule_in(int64_t delay_ms, Kind kind, uint32_t a, uint32_t b = 0) {
    events_.push(Event{add_ms(clock_.now_ms(), delay_ms), next_seq_++, kind, a, b});
  }
  std::string biz_seq(uint32_t request, uint8_t key) const {
    return key == 0 ? fmt::format("r{}", request + 1) : fmt::format("r{}.{}", request + 1, key);
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

  // crash without after=: a statement number drawn from the seed, 1 to the number of steps the
  // strategy can reach; an attempt that ends sooner crashes after its last statement, so every
  // crash drawn happens at a step the attempt really reached.
  uint16_t crash_point(Random& random) const {
    const auto span = reachable_steps(strategy_.info(), pitfall_).size();
    return static_cast<uint16_t>(random.between(1, static_cast<int64_t>(span)));
  }
  // After a step ran: crash:after=STEP, crash:after=after-commit, or crash with neither.
  bool crashes_now(const Delivery& delivery, std::string_view step) const {
    if (!delivery.crash_step) return false;
    if (delivery.crash_phase == Phase::kAfterCommit) return delivery.phases.just_committed();
    if (delivery.crash_phase != Phase::kNone) return false;
    if (!delivery.crash_step->empty()) return *delivery.crash_step == step;
    return delivery.statements_run >= delivery.crash_after || stepper_.finished(delivery.slot);
  }
  // Before a step runs: crash:after=before-guard or holding-guard.
  bool crashes_before(const Delivery& delivery) const {
    return delivery.crash_step &&
           delivery.phases.opens_before(delivery.crash_phase, stepper_.pending(delivery.slot).stmt);
  }
  void crash(uint32_t index, std::string what);
  void start_request(uint32_t worker);
  void send_attempt(uint32_t request);
  uint32_t new_delivery(uint32_t request, uint8_t attempt, uint8_t copy, uint8_t key);
  void arrive(uint32_t delivery);
  void step(uint32_t delivery);
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
  const Strategy& strategy_;
  const bool pitfall_;
  const SimOptions& options_;
  int64_t short_ttl_ms_ = 0;
  ManualClock clock_{0};
  std::string folder_;
  std::string path_;
  Connection client_;  // tokens and status queries
  Connection busy_;    // the other writer of the busy fault
  bool busy_held_ = false;
  std::vector<std::unique_ptr<Connection>> pool_;
  std::vector<Connection*> free_connections_;
  Stepper stepper_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  uint64_t next_seq_ = 0;
  std::vector<RequestState> requests_;
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
  int64_t attempts_total_ = 0;
  int64_t deliveries_total_ = 0;  // copies that reached the server (double submits, redeliveries)
  std::vector<TimelineEvent> timeline_;
};

Status Simulation::open_ledger_files() {
  std::string pattern = (std::filesystem::temp_directory_path() / "idemlab-sim-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    return Status::internal("cannot create a temporary folder for the simulation ledger");
  folder_ = pattern;
  path_ = folder_ + "/sim.db";
  if (Status status = create_sim_ledger(path_); !status.is_ok()) return status;
  for (Connection* connection : {&client_, &busy_})
    if (Status status = Connection::open(path_, sim_connection_options(), connection);
        !status.is_ok())
      return status;
  if (options_.record) {
    stepper_.on_run = [this](const Connection& connection, const PendingStep& step) {
      record(connection, step.stmt, step.binds);
    };
  }
  return Status::ok();
}

void Simulation::record(const Connection& connection, Stmt stmt, const Binds& binds) {
  uint32_t index = &connection == &client_ ? 0 : &connection == &busy_ ? 1 : 2;
  for (size_t i = 0; i < pool_.size(); ++i)
    if (pool_[i].get() == &connection) index = static_cast<uint32_t>(i + 2);
  options_.record->push_back({index, stmt, binds});
}

Connection* Simulation::take_connection() {
  if (free_connections_.empty()) {
    auto connection = std::make_unique<Connection>();
    throw_if_error(Connection::open(path_, sim_connection_options(), connection.get()));
    pool_.push_back(std::move(connection));
    return pool_.back().get();
  }
  Connection* connection = free_connections_.back();
  free_connections_.pop_back();
  return connection;
}

TransferRequest Simulation::make_request(uint32_t request, uint8_t key) const {
  Random random(mix(config_.seed, request, 0, Purpose::kRequest));
  int64_t from = static_cast<int64_t>(random.below(kAccounts));
  int64_t to = (from + 1 + static_cast<int64_t>(random.below(kAccounts - 1))) % kAccounts;
  int64_t amount = random.between(1, 100'000);
  TransferRequest result{biz_seq(request, key), fmt::format("a{:02}", from),
                         fmt::format("a{:02}", to), amount, ""};
  if (strategy_.info().needs_token) result.token = token_for(request, key);
  return result;
}

std::string Simulation::token_for(uint32_t request, uint8_t key) const {
  Random random(mix(config_.seed, request, key, Purpose::kToken));
  uint64_t high = random.next();
  return fmt::format("{:016x}{:016x}", high, random.next());
}

// Returns false when the token could not be stored yet: the write lock is taken.
bool Simulation::issue_token_for(uint32_t request, uint8_t key) {
  Random random(mix(config_.seed, request, key, Purpose::kToken));
  uint64_t high = random.next();
  IssuedToken token;
  const uint64_t low = random.next();
  const int64_t ttl_ms = short_ttl_ms_ ? short_ttl_ms_ : config_.token_ttl_ms;
  Status status = issue_token(client_, clock_, high, low, ttl_ms, &token);
  if (options_.record)
    record(client_, Stmt::kInsertToken,
           {{":token", fmt::format("{:016x}{:016x}", high, low)},
            {":now", clock_.now_ms()},
            {":expires", clock_.now_ms() + ttl_ms}});
  if (status.code() == ExitCode::kRetryable) return false;
  throw_if_error(status);
  note(request, 0, 0, "client", "token issued", "",
       fmt::format("{}, expires at {} ms", token.token.substr(0, 8), token.expires_at_ms));
  return true;
}

void Simulation::note(uint32_t request, int attempt, int copy, const char* actor, std::string what,
                      std::string detail, std::string result, std::string fault) {
  if (!traced(request)) return;
  timeline_.push_back({clock_.now_ms(), actor, request + 1, attempt, copy, std::move(what),
                       std::move(detail), std::move(result), std::move(fault)});
}

uint16_t Simulation::reason_id(const std::string& reason) {
  for (size_t i = 0; i < reasons_.size(); ++i)
    if (reasons_[i] == reason) return static_cast<uint16_t>(i);
  reasons_.push_back(reason);
  return static_cast<uint16_t>(reasons_.size() - 1);
}

void Simulation::start_request(uint32_t worker) {
  if (next_request_ >= requests_.size()) return;
  uint32_t request = next_request_++;
  worker_request_[worker] = request;
  RequestState& state = requests_[request];
  state.created_ms = clock_.now_ms();
  send_attempt(request);
}

uint32_t Simulation::new_delivery(uint32_t request, uint8_t attempt, uint8_t copy, uint8_t key) {
  uint32_t index;
  if (free_deliveries_.empty()) {
    index = static_cast<uint32_t>(deliveries_.size());
    deliveries_.emplace_back();
  } else {
    index = free_deliveries_.back();
    free_deliveries_.pop_back();
  }
  deliveries_[index] = Delivery{};
  Delivery& delivery = deliveries_[index];
  delivery.live = true;
  delivery.request = request;
  delivery.attempt = attempt;
  delivery.copy = copy;
  delivery.key = key;
  return index;
}

void Simulation::send_attempt(uint32_t request) {
  RequestState& state = requests_[request];
  const bool new_key = state.attempts_sent > 0 && config_.retry.fresh_key;
  const uint8_t key = static_cast<uint8_t>(state.keys - (new_key ? 0 : 1));
  // The token strategy's client fetches a token for each key it uses; the token is a write,
  // so it may have to wait for the lock like any other.
  if (strategy_.info().needs_token && state.token_key != key) {
    if (!issue_token_for(request, key)) {
      if (!state.token_waiting) ++lock_waits_;
      state.token_waiting = true;
      schedule_in(kLockPollMs, Kind::kSend, request);
      return;
    }
    state.token_waiting = false;
    state.token_key = key;
  }
  if (new_key) ++state.keys;
  const int attempt = ++state.attempts_sent;
  ++attempts_total_;
  state.phase = ClientPhase::kWaiting;
  state.current_resolved = false;
  Random faults(mix(config_.seed, request, static_cast<uint64_t>(attempt), Purpose::kFaults));
  Random network(mix(config_.seed, request, static_cast<uint64_t>(attempt), Purpose::kNetwork));
  int copies = 1, redeliveries = 0;
  for (const FaultSpec& fault : config_.faults) {
    if (attempt != 1) break;
    if (fault.kind == FaultKind::kDoubleSubmit && fault_hits(fault, request, attempt, faults))
      copies = static_cast<int>(fault.count);
    if (fault.kind == FaultKind::kRedeliver && fault_hits(fault, request, attempt, faults))
      redeliveries = static_cast<int>(fault.count);
  }
  note(request, attempt, 0, "client", "send", "",
       fmt::format("biz_seq {}{}", biz_seq(request, key),
                   copies > 1 ? fmt::format(", {} identical submissions", copies) : ""),
       copies > 1 ? "double-submit" : "");
  schedule_in(config_.retry.timeout_ms, Kind::kTimeout, request, static_cast<uint32_t>(attempt));
  for (int copy = 0; copy < copies + redeliveries; ++copy) {
    uint32_t index =
        new_delivery(request, static_cast<uint8_t>(attempt), static_cast<uint8_t>(copy), key);
    Delivery& delivery = deliveries_[index];
    bool lost = false;
    for (const FaultSpec& fault : config_.faults) {
      switch (fault.kind) {
        case FaultKind::kRequestLost:
          lost |= fault_hits(fault, request, attempt, faults);
          break;
        case FaultKind::kResponseLost:
          delivery.response_lost |= fault_hits(fault, request, attempt, faults);
          break;
        case FaultKind::kSlow:
          if (fault_hits(fault, request, attempt, faults)) {
            delivery.slow_ms = fault.ms;
            delivery.slow_step = &fault.step;
            delivery.slow_phase = fault.phase;
          }
          break;
        case FaultKind::kCrash:
          if (fault_hits(fault, request, attempt, faults)) {
            delivery.crash_step = &fault.step;
            delivery.crash_phase = fault.phase;
            if (fault.step.empty() && fault.phase == Phase::kNone)
              delivery.crash_after = crash_point(faults);
          }
          break;
        case FaultKind::kBusy:
          if (fault_hits(fault, request, attempt, faults)) delivery.busy_ms = fault.ms;
          break;
        default:
          break;
      }
    }
    const bool redelivery = copy >= copies;
    int64_t latency = network.between(1, 4);
    if (redelivery) latency += kRedeliveryGapMs * (copy - copies + 1);
    if (lost && !redelivery) {
      note(request, attempt, copy, "network", "request lost", "", "", "request-lost");
      delivery.live = false;
      free_deliveries_.push_back(index);
      continue;
    }
    schedule_in(latency, Kind::kArrive, index);
  }
}

void Simulation::arrive(uint32_t index) {
  Delivery& delivery = deliveries_[index];
  ++deliveries_total_;
  note(delivery.request, delivery.attempt, delivery.copy, "network",
       delivery.copy == 0 ? "delivered" : "delivered again");
  if (delivery.busy_ms > 0 && !busy_held_ && busy_.run(Stmt::kBeginImmediate, {}).ok()) {
    if (options_.record) record(busy_, Stmt::kBeginImmediate, {});
    busy_held_ = true;
    lock_holder_ = kBusyHolder;
    note(delivery.request, delivery.attempt, delivery.copy, "server", "another writer",
         "BEGIN IMMEDIATE", fmt::format("holds the lock for {} ms", delivery.busy_ms), "busy");
    schedule_in(delivery.busy_ms, Kind::kBusyRelease, 0);
  }
  StrategyOptions options;
  options.pitfall = pitfall_;
  options.lock_ttl_ms = short_ttl_ms_ ? short_ttl_ms_ : config_.lock_ttl_ms;
  options.owner = fmt::format("worker-{}", index);
  TransferRequest request = make_request(delivery.request, delivery.key);
  options.token = request.token;
  delivery.connection = take_connection();
  delivery.slot = stepper_.start(*delivery.connection, clock_, strategy_, options, request);
  if (stepper_.finished(delivery.slot)) {
    server_done(index, stepper_.answer(delivery.slot));
    return;
  }
  schedule_step(index);
}

void Simulation::schedule_step(uint32_t index) {
  Delivery& delivery = deliveries_[index];
  int64_t delay = kStepMs + std::exchange(delivery.after_commit_pause_ms, 0);
  if (delivery.slow_ms > 0 && delivery.slow_phase != Phase::kAfterCommit) {
    const StrategyInfo& info = strategy_.info();
    const PendingStep& pending = stepper_.pending(delivery.slot);
    std::string_view slow_at = delivery.slow_step && !delivery.slow_step->empty()
                                   ? std::string_view(*delivery.slow_step)
                                   : (pitfall_ ? info.critical_step_pitfall : info.critical_step);
    if (delivery.slow_phase != Phase::kNone) slow_at = phase_name(delivery.slow_phase);
    if (delivery.slow_phase != Phase::kNone
            ? delivery.phases.opens_before(delivery.slow_phase, pending.stmt)
            : pending.step == slow_at) {
      delay += delivery.slow_ms;
      note(delivery.request, delivery.attempt, delivery.copy, "server", "pause", "",
           fmt::format("{} ms before {}", delivery.slow_ms, slow_at), "slow");
      delivery.slow_ms = 0;
    }
  }
  schedule_in(delay, Kind::kStep, index);
}

// The write lock is held across steps only by an open write transaction, so a step that finds
// it taken sleeps in a queue instead of polling, and the longest sleeper is woken when the lock
// is free. (SQLite's own busy handler retries on a timer and is not fair; a FIFO queue is the
// simpler model and avoids every waiter retrying at once.) The wait limit is its own event.
void Simulation::wake_next() {
  if (lock_holder_ != kNoHolder || woken_ != kNoHolder) return;
  while (!sleepers_.empty()) {
    uint32_t index = sleepers_.front();
    sleepers_.pop_front();
    Delivery& delivery = deliveries_[index];
    if (!delivery.live || !delivery.asleep) continue;
    delivery.asleep = false;
    woken_ = index;
    schedule_in(kLockPollMs, Kind::kStep, index);
    return;
  }
}

void Simulation::update_lock_holder(uint32_t index, bool holds) {
  if (holds)
    lock_holder_ = index;
  else if (lock_holder_ == index)
    lock_holder_ = kNoHolder;
}

void Simulation::step(uint32_t index) {
  Delivery& delivery = deliveries_[index];
  const bool was_woken = woken_ == index;
  if (was_woken) woken_ = kNoHolder;
  if (crashes_before(delivery)) {
    crash(index,
          fmt::format("at {}, before {}: uncommitted work lost, no answer",
                      phase_name(delivery.crash_phase), stepper_.pending(delivery.slot).step));
    return;
  }
  const bool give_up_waiting =
      delivery.wait_start_ms >= 0 && clock_.now_ms() - delivery.wait_start_ms >= kLockWaitLimitMs;
  const ExecutedStep done = stepper_.advance(delivery.slot, give_up_waiting);
  if (done.result.code == StepCode::kBusy && !give_up_waiting) {
    if (delivery.wait_start_ms < 0) {
      ++lock_waits_;
      delivery.wait_start_ms = clock_.now_ms();
      note(delivery.request, delivery.attempt, delivery.copy, "server", std::string(done.step),
           std::string(statement_sql(done.stmt)), "waits for the write lock");
      schedule_in(kLockWaitLimitMs, Kind::kWaitLimit, index,
                  static_cast<uint32_t>(delivery.wait_start_ms));
    }
    delivery.asleep = true;
    if (was_woken)
      sleepers_.push_front(index);  // keeps its place in the queue
    else
      sleepers_.push_back(index);
    wake_next();
    return;
  }
  delivery.wait_start_ms = -1;
  update_lock_holder(index,
                     !stepper_.finished(delivery.slot) && delivery.connection->in_transaction());
  RequestState& state = requests_[delivery.request];
  ++state.statements;
  if (traced(delivery.request)) {
    note(delivery.request, delivery.attempt, delivery.copy, "server", std::string(done.step),
         std::string(statement_sql(done.stmt)), describe_result(done.stmt, done.result));
  }
  ++delivery.statements_run;
  delivery.phases.ran(done.stmt, done.result, delivery.connection->in_transaction());
  if (crashes_now(delivery, done.step)) {
    crash(index, fmt::format("after {}: uncommitted work lost, no answer", done.step));
    return;
  }
  if (delivery.slow_phase == Phase::kAfterCommit && delivery.slow_ms > 0 &&
      delivery.phases.just_committed()) {
    note(delivery.request, delivery.attempt, delivery.copy, "server", "pause", "",
         fmt::format("{} ms after the commit, before answering", delivery.slow_ms), "slow");
    delivery.after_commit_pause_ms = std::exchange(delivery.slow_ms, 0);
  }
  if (stepper_.finished(delivery.slot)) {
    server_done(index, stepper_.answer(delivery.slot));
    wake_next();
    return;
  }
  schedule_step(index);
  wake_next();
}

void Simulation::crash(uint32_t index, std::string what) {
  Delivery& delivery = deliveries_[index];
  note(delivery.request, delivery.attempt, delivery.copy, "server", "crash", "", std::move(what),
       "crash");
  stepper_.kill(delivery.slot);
  update_lock_holder(index, false);
  server_done(index, std::nullopt);
  wake_next();
}

void Simulation::server_done(uint32_t index, std::optional<Answer> answer) {
  Delivery& delivery = deliveries_[index];
  stepper_.release(delivery.slot);
  free_connections_.push_back(delivery.connection);
  delivery.connection = nullptr;
  const uint32_t request = delivery.request;
  if (!answer) {  // crashed: nothing to send
    delivery.live = false;
    free_deliveries_.push_back(index);
    return;
  }
  record_answer(request, *answer);
  note(request, delivery.attempt, delivery.copy, "server", "answer", "",
       std::string(outcome_name(answer->outcome)) +
           (answer->reason.empty() ? "" : " (" + answer->reason + ")"));
  if (delivery.response_lost) {
    note(request, delivery.attempt, delivery.copy, "network", "response lost", "", "",
         "response-lost");
    delivery.live = false;
    free_deliveries_.push_back(index);
    return;
  }
  delivery.answer = *answer;
  Random network(mix(config_.seed, request, delivery.attempt, Purpose::kNetwork));
  network.next();
  schedule_in(network.between(1, 4) + std::exchange(delivery.after_commit_pause_ms, 0),
              Kind::kAnswer, index);
}

void Simulation::record_answer(uint32_t request, const Answer& answer) {
  if (!is_definitive(answer.outcome)) return;
  RequestState& state = requests_[request];
  if (state.first_outcome < 0) {
    state.first_outcome = static_cast<int8_t>(answer.outcome);
    state.first_reason = reason_id(answer.reason);
    return;
  }
  Answer first{static_cast<Outcome>(state.first_outcome), reasons_[state.first_reason], false};
  if (!answers_agree(first, answer)) state.inconsistent = true;
}

void Simulation::answer(uint32_t index) {
  Delivery delivery = deliveries_[index];
  deliveries_[index].live = false;
  free_deliveries_.push_back(index);
  RequestState& state = requests_[delivery.request];
  const bool current = delivery.attempt == state.attempts_sent && !state.current_resolved &&
                       state.phase == ClientPhase::kWaiting;
  note(delivery.request, delivery.attempt, delivery.copy, "client",
       current ? "answer" : "answer ignored (late or a duplicate)", "",
       std::string(outcome_name(delivery.answer.outcome)));
  if (!current) return;
  state.current_resolved = true;
  if (is_definitive(delivery.answer.outcome)) {
    state.definitive = true;
    state.told_success = claims_success(delivery.answer.outcome);
    finish(delivery.request, ClientPhase::kDone);
    return;
  }
  state.saw_in_progress_last = delivery.answer.outcome == Outcome::kInProgress;
  back_off(delivery.request);
}

void Simulation::timeout(uint32_t request, uint32_t attempt) {
  RequestState& state = requests_[request];
  if (state.phase != ClientPhase::kWaiting || attempt != state.attempts_sent ||
      state.current_resolved)
    return;
  state.current_resolved = true;
  state.saw_in_progress_last = false;
  note(request, static_cast<int>(attempt), 0, "client", "timeout", "",
       fmt::format("no answer in {} ms", config_.retry.timeout_ms));
  back_off(request);
}

void Simulation::back_off(uint32_t request) {
  RequestState& state = requests_[request];
  if (state.attempts_sent >= config_.retry.attempts) {
    note(request, state.attempts_sent, 0, "client", "give up", "",
         fmt::format("after {} attempts", state.attempts_sent));
    finish(request, ClientPhase::kGaveUp);
    return;
  }
  state.phase = ClientPhase::kBackoff;
  Random random(mix(config_.seed, request, state.attempts_sent, Purpose::kBackoff));
  int64_t delay = config_.retry.delay_ms(state.attempts_sent, random);
  schedule_in(delay, Kind::kRetry, request);
}

void Simulation::retry(uint32_t request) {
  RequestState& state = requests_[request];
  if (config_.retry.query_first) {
    const Binds binds{{":biz_seq", biz_seq(request, static_cast<uint8_t>(state.keys - 1))}};
    StepResult flow = client_.run(Stmt::kSelectFlow, binds);
    if (options_.record) record(client_, Stmt::kSelectFlow, binds);
    ++state.statements;
    std::string found = "no flow row";
    if (flow.ok() && flow.row) {
      int64_t status = as_int((*flow.row)[4]);
      found = fmt::format("status {}", status);
      if (status == 2 || status == 3) {
        note(request, state.attempts_sent, 0, "client", "query", "", found);
        state.definitive = true;
        state.told_success = status == 2;
        finish(request, ClientPhase::kDone);
        return;
      }
    }
    note(request, state.attempts_sent, 0, "client", "query", "", found);
  }
  send_attempt(request);
}

void Simulation::finish(uint32_t request, ClientPhase phase) {
  RequestState& state = requests_[request];
  state.phase = phase;
  state.finished_ms = clock_.now_ms();
  ++finished_;
  if (options_.progress && finished_ % 1000 == 0) options_.progress(finished_, config_.requests);
  for (uint32_t worker = 0; worker < worker_request_.size(); ++worker)
    if (worker_request_[worker] == request) schedule_in(1, Kind::kStart, worker);
}

Status Simulation::run(SimResult* out) {
  if (Status status = open_ledger_files(); !status.is_ok()) return status;
  const uint32_t workers =
      static_cast<uint32_t>(std::min<int64_t>(config_.concurrency, config_.requests));
  worker_request_.assign(workers, UINT32_MAX);
  for (uint32_t worker = 0; worker < workers; ++worker) schedule_in(worker, Kind::kStart, worker);
  while (!events_.empty()) {
    if (Status status = check_interrupt(); !status.is_ok()) return status;
    Event event = events_.top();
    events_.pop();
    clock_.set_ms(event.at);
    switch (event.kind) {
      case Kind::kStart:
        start_request(event.a);
        break;
      case Kind::kSend:
        send_attempt(event.a);
        break;
      case Kind::kArrive:
        arrive(event.a);
        break;
      case Kind::kStep:
        step(event.a);
        break;
      case Kind::kWaitLimit:
        // Past the server's busy timeout: run the step once more and let the strategy see busy.
        if (deliveries_[event.a].live && deliveries_[event.a].asleep &&
            deliveries_[event.a].wait_start_ms == static_cast<int64_t>(event.b)) {
          deliveries_[event.a].asleep = false;
          step(event.a);
        }
        break;
      case Kind::kAnswer:
        answer(event.a);
        break;
      case Kind::kTimeout:
        timeout(event.a, event.b);
        break;
      case Kind::kRetry:
        retry(event.a);
        break;
      case Kind::kBusyRelease:
        busy_.run(Stmt::kRollback, {});
        if (options_.record) record(busy_, Stmt::kRollback, {});
        lock_holder_ = kNoHolder;
        wake_next();
        busy_held_ = false;
        break;
    }
  }
  return verdicts(out);
}

Status Simulation::verdicts(SimResult* out) {
  SimResult result;
  result.strategy = std::string(strategy_.info().name);
  result.pitfall = pitfall_;
  result.requests = config_.requests;
  result.seed = config_.seed;
  result.virtual_ms = clock_.now_ms();
  std::vector<uint32_t> pairs(requests_.size(), 0);
  StepResult counted = client_.query(
      "SELECT biz_seq, count(*) FROM journal WHERE side = 'debit' GROUP BY biz_seq", {},
      [&](const Row& row) {
        int64_t request = request_of_biz_seq(as_text(row[0]));
        if (request >= 0 && request < static_cast<int64_t>(pairs.size()))
          pairs[static_cast<size_t>(request)] += static_cast<uint32_t>(as_int(row[1]));
      });
  if (!counted.ok()) return Status::internal(counted.error);
  std::vector<int64_t> latencies;
  latencies.reserve(requests_.size());
  int64_t statements = 0;
  for (size_t i = 0; i < requests_.size(); ++i) {
    const RequestState& state = requests_[i];
    statements += state.statements;
    if (state.finished_ms >= 0) latencies.push_back(state.finished_ms - state.created_ms);
    if (pairs[i] == 1)
      ++result.moved_once;
    else if (pairs[i] >= 2)
      ++result.moved_twice_or_more;
    else
      ++result.not_moved;
    if (pairs[i] == 0 && state.told_success) ++result.never_moved;
    if (pairs[i] == 0 && !state.definitive && state.saw_in_progress_last) ++result.stuck;
    if (pairs[i] >= 1 && !state.definitive) ++result.unknown_to_client;
    if (pairs[i] == 0 && state.definitive && !state.told_success) ++result.refused;
    if (state.inconsistent) ++result.inconsistent_answers;
  }
  const double count = static_cast<double>(std::max<int64_t>(1, config_.requests));
  result.attempts_per_request = static_cast<double>(attempts_total_) / count;
  result.deliveries_per_request = static_cast<double>(deliveries_total_) / count;
  result.statements_per_request = static_cast<double>(statements) / count;
  result.lock_waits = lock_waits_;
  result.latency_ms_p50 = nearest_rank(latencies, 0.50);
  result.latency_ms_p99 = nearest_rank(latencies, 0.99);
  AuditReport audit;
  if (Status status = audit_ledger(client_, &audit); !status.is_ok()) return status;
  result.audit_ok = audit.ok();
  for (const auto& violation : audit.violations) result.audit_violations.push_back(violation.kind);
  result.timeline = std::move(timeline_);
  *out = std::move(result);
  return Status::ok();
}

}  // namespace

int64_t request_of_biz_seq(std::string_view biz_seq) {
  if (biz_seq.size() < 2 || biz_seq[0] != 'r') return -1;
  int64_t number = 0;
  size_t i = 1;
  for (; i < biz_seq.size() && biz_seq[i] >= '0' && biz_seq[i] <= '9'; ++i)
    number = number * 10 + (biz_seq[i] - '0');
  if (i == 1 || (i < biz_seq.size() && biz_seq[i] != '.')) return -1;
  return number - 1;
}

Status create_sim_ledger(const std::string& path) {
  std::vector<OpeningBalance> accounts;
  for (int64_t i = 0; i < kAccounts; ++i)
    accounts.push_back({fmt::format("a{:02}", i), kOpeningBalanceMinor});
  return create_ledger(path, accounts, false);
}

ConnectionOptions sim_connection_options() {
  ConnectionOptions options;
  options.busy_timeout_ms = 0;  // a busy lock is a wait in virtual time, not a real sleep
  options.synchronous_off = true;
  options.cache_kib = 128;
  return options;
}

bool breaks_guarantee(const SimResult& result) {
  const Strategy* strategy = find_strategy(result.strategy);
  if (result.pitfall || !strategy || !strategy->info().guarded) return false;
  return result.moved_twice_or_more > 0 || result.never_moved > 0 || result.stuck > 0 ||
         result.inconsistent_answers > 0 || !result.audit_ok;
}

Status simulate(const SimConfig& config, const Strategy& strategy, bool pitfall,
                const SimOptions& options, SimResult* out) {
  if (Status status = check_sim_budget(config); !status.is_ok()) return status;
  for (const FaultSpec& fault : config.faults)
    if (Status status = check_fault_steps(fault, strategy.info(), pitfall); !status.is_ok())
      return status;
  try {
    Simulation simulation(config, strategy, pitfall, options);
    return simulation.run(out);
  } catch (const StatusError& error) {
    return error.status;
  }
}

}  // namespace idemlab
