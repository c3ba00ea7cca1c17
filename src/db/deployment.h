// Deployment: where a command's attempts run, read once from its options by every command that
// runs attempts (the strategy subcommands, http, serve, consume, token issue): the ledger and
// its topology, the store that keeps tokens and locks apart from it (a row of
// guard_stores.h's table), a standby the reads may go to, and how each connection is opened.
// It is the one place those connections are opened, and follows the one rule for which member
// each uses (topology.h).
//
// A connection is never mended in place. Whoever holds one drops it once a statement found its
// link lost (StepResult::link_lost: the server went away, or answered read-only or not ready),
// and the next open() resolves the topology again: libpq tries the failover candidates for the
// one that takes writes now, the Sentinels are asked for the primary, and a Galera node that
// cannot be reached gives its turn to the next. link_pool.h keeps them for a command that runs
// many attempts.
#pragma once

#include <memory>
#include <string>

#include "core/limits.h"
#include "core/status.h"
#include "db/connection.h"
#include "db/guard_store.h"
#include "db/locator.h"

namespace idemlab {

struct DeploymentOptions {
  std::string db;
  std::string guards;   // --redis or --locks: a guard store's URL; "": the ledger keeps them
  std::string read_db;  // --read-db: a standby of `db` for the reads outside a transaction
  Isolation isolation = Isolation::kDefault;
  int busy_timeout_ms = defaults::kBusyTimeoutMs;
  // Several connections of this process write one SQLite file (serve's pool): they take its
  // one writer in turn (ConnectionOptions::wait_in_process).
  bool wait_in_process = false;
};

// The connections one attempt uses, opened together.
struct Links {
  int member = 0;  // the ledger's member they reach (topology.h); 0: the topology chose
  Connection ledger;
  std::unique_ptr<GuardStore> guards;  // nullptr: the ledger keeps tokens and locks
  Connection standby;                  // not open: every read goes to the ledger

  // Whether any of them found its link lost: they are not to be used again.
  bool lost() const;
  // Where tokens are issued: the guard store when there is one, else the ledger.
  StatementRunner& token_store();
};

class Deployment {
 public:
  // Reads every URL; a usage error names the one that is wrong. Connects to nothing.
  static Result<Deployment> read(DeploymentOptions options);

  // Opens the links for connection number `turn` (topology.h's member_for_turn). On a cluster
  // that spreads connections, a node that cannot be reached or is not serving gives its turn
  // to the next, each node tried once, so that one node's death leaves the others in use; a
  // usage error is returned at once.
  Result<Links> open(uint64_t turn) const;

  // Before the first attempt reads there: the standby, if any, replays this ledger
  // (replication.h's check_standby); a usage error otherwise.
  Status check(Links& links) const;

  const DeploymentOptions& options() const { return options_; }
  const Locator& ledger() const { return ledger_; }
  const Topology& guard_topology() const { return guard_topology_; }
  bool has_guard_store() const { return !options_.guards.empty(); }

 private:
  Result<Links> open_on(int member) const;

  DeploymentOptions options_;
  Locator ledger_;
  Locator standby_;
  Topology guard_topology_;
};

}  // namespace idemlab
