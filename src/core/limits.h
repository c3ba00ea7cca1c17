// Limits: every bound on time, counts, money and memory, and every default, in one place. The
// command line, scenario files and the parsers of faults and retry policies check against these, so
// a value that passes one way in passes every way in, and every sum the program computes fits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/status.h"

namespace idemlab {

namespace limits {

// Durations and TTLs (slow, busy, short-ttl, timeouts, backoff, lock and token TTLs), in ms.
// One day: far beyond any lesson, and small enough that no clock sum can overflow.
inline constexpr int64_t kMaxDurationMs = 86'400'000;

// Simulated requests in one run, clients at once, attempts per request.
inline constexpr int64_t kMaxRequests = 10'000'000;
inline constexpr int64_t kMaxConcurrency = 1000;
inline constexpr int64_t kMaxAttempts = 100;
// Copies of one attempt a fault may add (double-submit:k=, redeliver:k=).
inline constexpr int64_t kMaxCopies = 100;
// Seeds are whole numbers in [0, 2^63 - 1], the range a scenario file (TOML) can also write.
inline constexpr int64_t kMaxSeed = INT64_MAX;

// Money, in minor units. One amount, and the sum of a ledger's opening balances: money is
// conserved, so no balance and no sum of balances the audit computes can pass it.
inline constexpr int64_t kMaxMoneyMinor = 1'000'000'000'000'000;  // 10^13 in major units
inline constexpr int64_t kMaxAccounts = 1000;

// connect_timeout=S in a database or Redis URL: how long a server may take, in seconds.
inline constexpr int64_t kMaxServerWaitS = 3600;

// Tokens one POST /tokens?count=N may issue.
inline constexpr int64_t kMaxTokensAtOnce = 10000;

// consume: deliveries of one message before it is dead-lettered, and the longest pause before
// a requeue (the pause doubles from --requeue-pause-ms up to it).
inline constexpr int64_t kMaxDeliveries = 1000;
inline constexpr int64_t kMaxRequeuePauseMs = 5000;

// Identifiers: a request's id (biz_seq), an account's and a source's name, a token; and how many
// sources one simulation's requests come from.
inline constexpr size_t kMaxBizSeqLength = 64;
inline constexpr size_t kMaxAccountNameLength = 32;
inline constexpr size_t kMaxTokenLength = 64;
inline constexpr size_t kMaxSources = 16;

// Work run at once: compare and report simulate this many strategies side by side, explore
// runs 2 to 4 twins, serve lends at most this many ledger connections and holds this many
// client connections, consume takes this many unacked messages.
inline constexpr int64_t kMaxJobs = 64;
inline constexpr int64_t kMinDuplicates = 2;
inline constexpr int64_t kMaxDuplicates = 4;
inline constexpr int64_t kMaxPoolConnections = 1000;
inline constexpr int64_t kMaxHttpConnections = 10000;
inline constexpr int64_t kMaxPrefetch = 65535;

// What one request to serve may be: a body and a request line with headers.
inline constexpr int64_t kMinBodyBytes = 256;
inline constexpr int64_t kMaxBodyBytes = 16 << 20;
inline constexpr int64_t kMinHeaderBytes = 1024;
inline constexpr int64_t kMaxHeaderBytes = 1 << 20;

// What a command prints or reads at most: history's rows, the requests a report's matrix runs
// per scenario, the requests a timeline of every request may hold, findings listed per audit
// check (the rest counted), a scenario file's size.
inline constexpr int64_t kMaxHistoryRows = 1'000'000;
inline constexpr int64_t kMaxReportRequests = 100'000;
inline constexpr int64_t kMaxTimelineRequests = 200;
inline constexpr int kMaxViolationsPerCheck = 100;
inline constexpr int64_t kMaxScenarioBytes = 1 << 20;

// A ledger file's own check before a write: PRAGMA integrity_check up to this size,
// quick_check up to the next; past that the header alone (db/schema/ledger_file.cpp says why).
inline constexpr int64_t kIntegrityCheckMaxBytes = 256 << 10;
inline constexpr int64_t kQuickCheckMaxBytes = 4 << 20;

// explore and simulate on a server: how long a statement may wait for a lock, a guard against a
// hang, never a part of any schedule.
inline constexpr int64_t kServerWaitGuardMs = 60'000;

// Interleavings one explore run may replay.
inline constexpr int64_t kMaxInterleavings = 10'000'000;

// What one simulate, compare or explore run may allocate, estimated from its settings before
// it starts (sim/budget.h). A run over it is refused with the figure.
inline constexpr int64_t kMemoryBudgetBytes = int64_t{2} << 30;  // 2 GiB

// Virtual time never passes this; with the bounds above no run comes near it (10^7 requests x
// 100 attempts x a few days each is below 10^17).
inline constexpr int64_t kMaxVirtualMs = int64_t{1} << 60;

}  // namespace limits

// Defaults: what a value is when nobody says, for every command and transport alike.
namespace defaults {

// How long an attempt waits for the database's lock (on a server: a row lock) before it
// answers busy; read-only commands wait as long for a ledger another process is writing.
inline constexpr int kBusyTimeoutMs = 5000;
// How long a lock-table lock lasts, and a token from `token issue`, POST /tokens and the
// payment page.
inline constexpr int64_t kLockTtlMs = 30000;
inline constexpr int64_t kTokenTtlMs = 600000;
// How long a client waits for a database server, Redis or the broker to accept a connection,
// and for each answer after that (connect_timeout= in a URL changes it).
inline constexpr int kServerWaitS = 10;
// consume: deliveries of one message before it is dead-lettered, and the first pause before a
// requeue (doubled each time, up to limits::kMaxRequeuePauseMs).
inline constexpr int kMaxDeliveries = 10;
inline constexpr int kRequeuePauseMs = 100;

// serve's listener: a body, a request line with headers, an idle connection, connections at
// once (each a thread).
inline constexpr int64_t kBodyBytes = 64 << 10;
inline constexpr int64_t kHeaderBytes = 16 << 10;
inline constexpr int kIdleConnectionS = 10;
inline constexpr int kHttpConnections = 256;
// publish: how long a confirm may take, and how often one request is published without one.
inline constexpr int kConfirmWaitMs = 5000;
inline constexpr int kMaxPublishCopies = 5;

}  // namespace defaults

// Checks low <= value <= high; the message names `what` (an option, or "file:line: key").
inline Status check_range(std::string_view what, int64_t value, int64_t low, int64_t high) {
  if (value >= low && value <= high) return Status::ok();
  return Status::usage(std::string(what) + " must be between " + std::to_string(low) + " and " +
                       std::to_string(high) + ", not " + std::to_string(value));
}

// a + b for clock arithmetic; both are bounded above, so this cannot overflow, and it says so.
inline int64_t add_ms(int64_t at_ms, int64_t delta_ms) {
  if (delta_ms < 0 || delta_ms > limits::kMaxVirtualMs || at_ms > limits::kMaxVirtualMs)
    throw StatusError{Status::internal("clock arithmetic out of range")};
  return at_ms + delta_ms;
}

}  // namespace idemlab
