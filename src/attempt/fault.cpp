// Parsing fault specs.
#include "attempt/fault.h"

#include <fmt/format.h>

#include <array>
#include <charconv>

#include "core/limits.h"
#include "core/parse.h"

namespace idemlab {

namespace {

// Surfaces: the wire faults on every command that sends a request; crash and slow where a
// server runs the attempt; the rest need many requests, so only a simulation takes them.
constexpr unsigned kWire = surface_bit(Surface::kOneAttempt) | surface_bit(Surface::kHttp) |
                           surface_bit(Surface::kServe) | surface_bit(Surface::kLimit) |
                           surface_bit(Surface::kSimulate);
constexpr unsigned kServerSide = surface_bit(Surface::kOneAttempt) | surface_bit(Surface::kServe) |
                                 surface_bit(Surface::kConsume) | surface_bit(Surface::kSimulate);
constexpr unsigned kSimulated = surface_bit(Surface::kSimulate);

constexpr std::array kFaults{
    FaultInfo{FaultKind::kRequestLost, "request-lost", "request-lost", "p, nth",
              "the request is lost before the server: nothing happens, the client times out",
              kWire},
    FaultInfo{FaultKind::kResponseLost, "response-lost", "response-lost", "p, nth",
              "the server does the work and commits; the answer is lost, the client times out",
              kWire},
    FaultInfo{FaultKind::kSlow, "slow", "slow[:ms=MS,at=STEP]",
              "ms (default 1000), at=STEP|PHASE|critical, p, nth; one attempt: gate=DIR",
              "the server pauses ms before STEP or PHASE, so a retry or twin overlaps it. "
              "Default: before-guard in simulate, compare and explore (the same phase for "
              "every strategy, holding nothing, so the guard must refuse the stalled attempt "
              "when it resumes); in a one-attempt command the strategy's critical step "
              "(at=critical), where a twin overlaps the decisive step. gate=DIR: instead of "
              "sleeping, write DIR/arrived.PID and wait until DIR/open exists (ms caps the "
              "wait, default 60000), so a script can release racing twins together",
              kServerSide},
    FaultInfo{FaultKind::kCrash, "crash", "crash:after=STEP",
              "after=STEP|PHASE (simulations: default a step drawn from the seed), p, nth",
              "the server dies right after STEP: uncommitted work is lost, committed work "
              "stays, no answer is sent; it says so in one line on standard error first",
              kServerSide},
    FaultInfo{FaultKind::kRedeliver, "redeliver", "redeliver[:k=K]", "k (default 1), p, nth",
              "a message queue delivers the request k more times (the ack was lost)", kSimulated},
    FaultInfo{FaultKind::kDoubleSubmit, "double-submit", "double-submit[:k=K]",
              "k (default 2), p, nth",
              "k identical submissions leave at the same moment (a double click)", kSimulated},
    FaultInfo{FaultKind::kShortTtl, "short-ttl", "short-ttl:ms=MS", "ms (required)",
              "lock and token time-to-live set to ms, shorter than the work", kSimulated},
    FaultInfo{FaultKind::kBusy, "busy", "busy:ms=MS", "ms (required), p, nth",
              "another writer holds the database write lock for ms when the request arrives",
              kSimulated},
    FaultInfo{FaultKind::kOverdraw, "overdraw", "overdraw", "p, nth",
              "the request asks for more than the payer holds: a definitive rejection "
              "(insufficient_funds) that every repeat must get again",
              kSimulated},
    FaultInfo{FaultKind::kNoKey, "no-key", "no-key", "p, nth",
              "the client sends the request without its idempotency key (one attempt: "
              "--no-key); guards see NULL",
              kSimulated},
    FaultInfo{FaultKind::kPause, "pause", "pause[:ms=MS,at=STEP]",
              "ms (default 1000), at=STEP|PHASE|critical, gate=DIR",
              "the whole process stops before STEP (SIGSTOP), as the kernel or a long garbage "
              "collection stops it: its threads, and the heartbeats of its lock service's "
              "session, stop too, so a lease (a ZooKeeper session, a Redis TTL) can run out "
              "while it holds a lock it believes is still its own; a helper process continues "
              "it (SIGCONT) after ms, or with gate=DIR once DIR/open exists (ms caps the wait, "
              "default 60000)",
              surface_bit(Surface::kOneAttempt)},
    FaultInfo{FaultKind::kFailover, "failover", "failover[:of=WHAT,after=STEP,lag-ms=MS]",
              "of=guards|ledger|both (default guards); after=STEP|PHASE (default: the "
              "attempt's guard write, or with of=ledger|both its commit), p, nth; or at-ms=MS "
              "(once, at that virtual time); lag-ms (default: the replica's)",
              "a primary dies right after STEP and its replica, which has every write older "
              "than lag-ms but none since (the write STEP made included), is promoted. "
              "of=guards: the store that keeps tokens and locks apart from the ledger (a Redis "
              "primary with a replica); of=ledger: the ledger (an asynchronous standby), whose "
              "transactions under way die with it; of=both: the two at the same moment. A "
              "synchronous replica is how the servers stand (--topology "
              "ledger=standby:sync=on, guards=replica:sync=on): it has every write its primary "
              "acknowledged. The strategies with a token or a lock keep them in that store for "
              "the run",
              kSimulated},
    FaultInfo{FaultKind::kRepublish, "republish", "republish[:k=K,ms=MS]",
              "k (default 1), ms (default 40), p, nth",
              "the producer's confirm is lost, so it publishes the request again k times, "
              "each ms after the last: copies of one request, as a queue carries them; a "
              "broker with a duplicate window (--topology queue=jetstream) drops each copy "
              "that comes within it",
              kSimulated},
    FaultInfo{FaultKind::kReplayPause, "replay-pause", "replay-pause[:ms=MS]",
              "ms (default 1000), p, nth",
              "the ledger's standby stops replaying when the request arrives and resumes ms "
              "later, as PostgreSQL's pg_wal_replay_pause() and pg_wal_replay_resume(): a read "
              "sent there meanwhile finds nothing committed since, however small the standby's "
              "lag (--topology ledger=standby:reads=standby). A failover ends the pause: the "
              "promoted standby first replays what it received",
              kSimulated},
};

Status parse_int(std::string_view fault, std::string_view key, std::string_view value, int64_t low,
                 int64_t high, int64_t* out) {
  if (parse_whole(value, low, high, out)) return Status::ok();
  return Status::usage(fmt::format("fault {}: {}={} is not a whole number from {} to {}", fault,
                                   key, value, low, high));
}

Status parse_probability(std::string_view fault, std::string_view value, double* out) {
  double number = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size() || !(number >= 0) || number > 1)
    return Status::usage(
        fmt::format("fault {}: p={} is not a probability in [0, 1]", fault, value));
  *out = number;
  return Status::ok();
}

Status parse_failover_of(std::string_view fault, std::string_view value, FailoverOf* out) {
  static constexpr std::pair<std::string_view, FailoverOf> kNames[] = {
      {"guards", FailoverOf::kGuards},
      {"ledger", FailoverOf::kLedger},
      {"both", FailoverOf::kBoth}};
  for (const auto& [name, of] : kNames)
    if (value == name) {
      *out = of;
      return Status::ok();
    }
  return Status::usage(
      fmt::format("fault {}: of={} is not one of guards, ledger, both", fault, value));
}

// The keys of the failover fault: whether `key` is one of `spec`'s, and if so, what reading it
// gave in `status`.
bool parse_failover_key(std::string_view name, std::string_view key, std::string_view value,
                        FaultSpec* spec, Status* status) {
  if (spec->kind != FaultKind::kFailover) return false;
  if (key == "lag-ms") {
    *status = parse_int(name, key, value, 0, limits::kMaxDurationMs, &spec->lag_ms);
    spec->lag_given = true;
  } else if (key == "at-ms") {
    *status = parse_int(name, key, value, 0, limits::kMaxDurationMs, &spec->at_ms);
  } else if (key == "of") {
    *status = parse_failover_of(name, value, &spec->of);
  } else if (key == "sync") {
    *status = Status::usage(fmt::format(
        "fault {}: sync= is how the replica stands, not what happens to it: give --topology "
        "ledger=standby:sync={} (or guards=replica:sync={} for the guard store)",
        name, value, value));
  } else {
    return false;
  }
  return true;
}

// The --topology that replaces a fault that was a topology (sim/shared/sim_topology.h), with
// its values carried over; "" for any other name.
std::string topology_for_retired(std::string_view name, std::string_view rest) {
  if (name == "galera")
    return rest.empty() ? "ledger=galera" : fmt::format("ledger=galera:{}", rest);
  if (name != "replica-lag") return "";
  std::string_view lag = "1000";
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  std::string_view bad;
  if (split_pairs(rest, &pairs, &bad))
    for (const auto& [key, value] : pairs)
      if (key == "ms") lag = value;
  return fmt::format("ledger=standby:lag-ms={},reads=standby", lag);
}

// After its key=value pairs: the defaults a spec leaves out, and what its pairs cannot say
// together.
Status complete_fault(std::string_view name, bool pauses, FaultSpec* spec) {
  if (pauses && spec->ms == 0) spec->ms = spec->gate.empty() ? kDefaultSlowMs : kDefaultGateCapMs;
  if (spec->kind == FaultKind::kReplayPause && spec->ms == 0) spec->ms = kDefaultSlowMs;
  const bool aimed = !spec->step.empty() || spec->phase != Phase::kNone || spec->nth != 0 ||
                     spec->probability != 1.0;
  if (spec->at_ms >= 0 && aimed)
    return Status::usage(fmt::format(
        "fault {}: at-ms= places the failover in time; after=, p= and nth= place it at an "
        "attempt: give one or the other",
        name));
  if ((spec->kind == FaultKind::kShortTtl || spec->kind == FaultKind::kBusy) && spec->ms == 0)
    return Status::usage(fmt::format("fault {} needs ms=MS", name));
  if (spec->count == 0) spec->count = spec->kind == FaultKind::kDoubleSubmit ? 2 : 1;
  if (spec->kind == FaultKind::kRepublish && spec->ms == 0) spec->ms = kDefaultRepublishMs;
  return Status::ok();
}

}  // namespace

std::span<const FaultInfo> fault_table() {
  return kFaults;
}

const FaultInfo& fault_info(FaultKind kind) {
  return kFaults[static_cast<size_t>(kind)];
}

std::string_view FaultSpec::name() const {
  return fault_info(kind).name;
}

Status parse_fault(std::string_view text, FaultSpec* out) {
  FaultSpec spec;
  spec.text = std::string(text);
  size_t colon = text.find(':');
  std::string_view name = text.substr(0, colon);
  const FaultInfo* info = nullptr;
  for (const auto& row : kFaults)
    if (row.name == name) info = &row;
  if (const std::string topology =
          topology_for_retired(name, colon == std::string_view::npos ? "" : text.substr(colon + 1));
      !topology.empty())
    return Status::usage(
        fmt::format("fault {} is a topology, not a fault: give --topology {} (in a scenario file, "
                    "topology = [\"{}\"])",
                    name, topology, topology));
  if (!info) return Status::usage(fmt::format("unknown fault '{}' (see: idemlab faults)", name));
  spec.kind = info->kind;
  // slow and pause take the same parameters: one sleeps, the other stops the whole process.
  const bool pauses = spec.kind == FaultKind::kSlow || spec.kind == FaultKind::kPause;
  std::string_view rest = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  std::string_view bad;
  if (!split_pairs(rest, &pairs, &bad))
    return Status::usage(fmt::format("fault {}: expected key=value, got '{}'", name, bad));
  for (const auto& [key, value] : pairs) {
    Status status;
    if (key == "p") {
      status = parse_probability(name, value, &spec.probability);
    } else if (key == "nth") {
      status = parse_int(name, key, value, 1, limits::kMaxRequests, &spec.nth);
    } else if (key == "ms" &&
               (pauses || spec.kind == FaultKind::kShortTtl || spec.kind == FaultKind::kBusy ||
                spec.kind == FaultKind::kRepublish || spec.kind == FaultKind::kReplayPause)) {
      status = parse_int(name, key, value, 1, limits::kMaxDurationMs, &spec.ms);
    } else if ((key == "at" && pauses) || (key == "after" && (spec.kind == FaultKind::kCrash ||
                                                              spec.kind == FaultKind::kFailover))) {
      if (value.empty()) status = Status::usage(fmt::format("fault {}: {}= is empty", name, key));
      spec.at_given = pauses;
      if (auto phase = phase_from_name(value))
        spec.phase = *phase;
      else if (!(spec.at_given && value == kCriticalSite))
        spec.step = std::string(value);
    } else if (parse_failover_key(name, key, value, &spec, &status)) {
    } else if (key == "gate" && pauses) {
      if (value.empty()) return Status::usage(fmt::format("fault {}: gate= is empty", name));
      spec.gate = std::string(value);
    } else if (key == "k" &&
               (spec.kind == FaultKind::kRedeliver || spec.kind == FaultKind::kDoubleSubmit ||
                spec.kind == FaultKind::kRepublish)) {
      status = parse_int(name, key, value, 1, limits::kMaxCopies, &spec.count);
    } else {
      return Status::usage(fmt::format("fault {} takes {}; not '{}'", name, info->parameters, key));
    }
    if (!status.is_ok()) return status;
  }
  RETURN_IF_ERROR(complete_fault(name, pauses, &spec));
  *out = std::move(spec);
  return Status::ok();
}

Status parse_faults(const std::vector<std::string>& texts, std::vector<FaultSpec>* out) {
  out->clear();
  for (const std::string& text : texts) {
    FaultSpec fault;
    RETURN_IF_ERROR(parse_fault(text, &fault));
    out->push_back(std::move(fault));
  }
  return Status::ok();
}

}  // namespace idemlab
