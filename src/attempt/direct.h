// One attempt in this process, run to completion: the driver behind every transport (a
// strategy subcommand, idemlab http, serve, consume) and explain's rehearsal. Faults are real:
// slow sleeps or waits at a gate, crash kills the process by SIGKILL after one line on
// standard error, and the wire faults lose the request or the answer (wire_faults.h). An
// AttemptSetup is built by the front door (front_door.h) only.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "attempt/fault.h"
#include "core/clock.h"
#include "db/guard_store.h"
#include "db/replication.h"
#include "ledger/ledger.h"
#include "ledger/read_split.h"
#include "strategies/strategy.h"

namespace idemlab {

struct AttemptSetup {
  const Strategy* strategy = nullptr;
  StrategyOptions options;
  TransferRequest request;
  std::vector<FaultSpec> faults;  // request-lost, response-lost, slow, crash
  bool log_attempt = true;        // write a row to the attempts log
  // Serve a biz_seq that another strategy served first (a server that changed strategy
  // between releases); otherwise such a request is refused as a mismatch.
  bool allow_strategy_switch = false;
  // Where tokens and locks live when not in the ledger (--redis); nullptr: the ledger.
  GuardStore* guard_store = nullptr;
  // Where reads outside a write transaction go (--read-db); nullptr: the ledger.
  ReadSplit* reads = nullptr;
  // Called after every step with its result (explain's trace).
  std::function<void(const PendingStep&)> observer;
  // Called when a fault acts on the attempt, with where ("before step 'debit'"), before it
  // does (serve's log of the faults that acted).
  std::function<void(const FaultSpec&, std::string_view where)> fault_acts;
};

struct AttemptReport {
  Answer answer;          // what the client is told
  Answer server_answer;   // what the server decided (differs when the response was lost)
  std::string fault;      // the fault that changed the outcome, if any
  std::string served_by;  // with reason strategy_switch: the strategy that served it first
  KeyHolder holder;       // with in_progress: who holds the key, and until when
  // With connection_lost: which connection, and what its client library said.
  std::string lost_connection;
  // With unreplicated: the guard store, and how many replicas acknowledged its write.
  std::string unreplicated;
  // Where it ran: the node that served it on a cluster; once applied, the commit position a
  // standby must replay past to show it (--read-your-writes). Opaque here (db/replication.h).
  WhereRan where;
};

// Runs the attempt. The returned Status is an error only for failures outside the answer.
Status run_direct_attempt(Connection& connection, const Clock& clock, const AttemptSetup& setup,
                          AttemptReport* out);

}  // namespace idemlab
