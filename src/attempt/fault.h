// Fault specs: NAME[:key=value,...], the same syntax for one-attempt commands and simulations.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "attempt/phase.h"
#include "core/status.h"

namespace idemlab {

enum class FaultKind {
  kRequestLost,   // the request never reaches the server
  kResponseLost,  // the server commits; the answer never reaches the client
  kSlow,          // the server sleeps before a step, past the client's timeout
  kCrash,         // the server dies right after a step
  kRedeliver,     // a queue delivers the request k more times
  kDoubleSubmit,  // k identical submissions at once
  kShortTtl,      // lock and token TTLs shorter than the work
  kBusy,          // another writer holds the database lock for a while
  kOverdraw,      // the request asks for more than the payer holds (insufficient funds)
  kNoKey,         // the client sends the request without its idempotency key
  kPause,         // the whole process stops before a step (the kernel's SIGSTOP, a long GC)
  kFailover,      // a primary dies (the guard store's, the ledger's); its replica takes over
  kRepublish,     // the producer's confirm is lost: it publishes the request again, k times
  kReplayPause,   // the ledger's standby stops replaying for a while (the request's reads see it)
};

// Where a fault can be asked for: each command that takes --fault is one surface, and the
// fault table says, fault by fault, which surfaces take it (fault_check.h holds a command to it).
enum class Surface : uint8_t {
  kOneAttempt,  // a strategy subcommand: one attempt in this process
  kHttp,        // idemlab http: one request to the endpoint, in this process
  kServe,       // idemlab serve: drawn per request (p=, nth=)
  kConsume,     // idemlab consume: drawn per delivery (p=, nth=)
  kLimit,       // idemlab limit: one change of a payer's limit
  kSimulate,    // simulate, compare, explore and scenario files
};
inline constexpr unsigned surface_bit(Surface surface) {
  return 1u << static_cast<unsigned>(surface);
}

struct FaultInfo {
  FaultKind kind;
  std::string_view name;
  std::string_view syntax;  // as --fault's help writes it, e.g. "crash:after=STEP"
  std::string_view parameters;
  std::string_view description;
  unsigned surfaces;  // surface_bit() of each surface that takes it
};
std::span<const FaultInfo> fault_table();
const FaultInfo& fault_info(FaultKind kind);

// What `slow` pauses when it names no ms=: past the default client timeout (300 ms).
constexpr int64_t kDefaultSlowMs = 1000;
// How long after the first publish a republished copy follows, unless ms= says.
constexpr int64_t kDefaultRepublishMs = 40;
// How long a slow:gate= waits for its gate at most, unless ms= says.
constexpr int64_t kDefaultGateCapMs = 60000;

// Where a simulated `slow` with no at= pauses: the same phase for every strategy, so a
// comparison is fair. before-guard holds nothing while it stalls (so it costs no other request
// and no strategy pays for SQLite's one write lock), and the overlapping retry finishes first,
// so the guard must refuse the stalled attempt when it resumes. A one-attempt command keeps the
// strategy's critical step instead (`at=critical`), where a twin overlaps the decisive step.
constexpr Phase kSimulatedSlowPhase = Phase::kBeforeGuard;
// at=critical: each strategy's own decisive step (idemlab explain STRATEGY names it).
constexpr std::string_view kCriticalSite = "critical";

// What a failover fault fails over (of=): the store that keeps tokens and locks apart from the
// ledger, the ledger itself, or both at the same moment.
enum class FailoverOf : uint8_t { kGuards, kLedger, kBoth };
inline bool fails_over_guards(FailoverOf of) {
  return of != FailoverOf::kLedger;
}
inline bool fails_over_ledger(FailoverOf of) {
  return of != FailoverOf::kGuards;
}

struct FaultSpec {
  FaultKind kind = FaultKind::kRequestLost;
  double probability = 1.0;    // p=: chance per request (simulations)
  int64_t nth = 0;             // nth=: only the Nth request (1-based); 0 = any
  int64_t ms = 0;              // ms=: slow, short-ttl, busy
  std::string step;            // at= (slow) or after= (crash); crash without it: see the simulator
  Phase phase = Phase::kNone;  // at= or after= named a phase instead of a step
  bool at_given = false;       // slow: at= was written (a step, a phase, or `critical`)
  std::string gate;            // slow, pause, one attempt: wait at a gate in this folder (gate.h)
  int64_t count = 0;           // k=: redeliver, double-submit
  int64_t lag_ms = 0;          // lag-ms=: failover, how far the replica is behind its primary
  bool lag_given = false;      // lag-ms= was written (else the topology's replica's lag)
  int64_t at_ms = -1;          // at-ms=: failover, once at this virtual time (-1: at an attempt)
  FailoverOf of = FailoverOf::kGuards;  // of=: failover, what fails over
  std::string text;                     // as written, for reports and the attempts log

  std::string_view name() const;
};

// Parses one spec. Checks the name, each key and value; a step name is checked later against
// the strategy that runs it.
Status parse_fault(std::string_view text, FaultSpec* out);
// Parses every --fault given, in order; stops at the first bad one.
Status parse_faults(const std::vector<std::string>& texts, std::vector<FaultSpec>* out);

}  // namespace idemlab
