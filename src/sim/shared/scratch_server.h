// ScratchServer: a ledger of its own on a PostgreSQL or MariaDB server, for one explore run. It
// lives in a schema (PostgreSQL) or a database (MariaDB) made for the run under a name no other
// run uses, so two runs against one server never see each other's rows, and it is dropped when
// the ScratchServer goes, an interrupted run included.
#pragma once

#include <string>
#include <vector>

#include "core/limits.h"
#include "db/connection.h"
#include "db/schema/ledger_file.h"

namespace idemlab {

class ScratchServer {
 public:
  ScratchServer() = default;
  ~ScratchServer();
  ScratchServer(const ScratchServer&) = delete;
  ScratchServer& operator=(const ScratchServer&) = delete;

  // Makes the schema or database on the server `server` names, with idemlab's tables and these
  // accounts in it.
  static Status create(const Locator& server, const std::vector<OpeningBalance>& accounts,
                       ScratchServer* out);

  // Another connection into it. `options.isolation` sets its level.
  Result<Connection> connect(const ConnectionOptions& options) const;
  // After a connection of the run found its link lost (a failover, a node gone): another one
  // through the topology, as connect() makes them, waiting while no server there takes the
  // session yet (the failover under way: no primary, or one still read-only), up to
  // kRelinkWaitMs of real time. On a cluster a node that cannot be reached gives its turn to
  // the next. The wait is the servers', outside the run's virtual time.
  Result<Connection> reconnect(const ConnectionOptions& options) const;
  // The control connection made again the same way, after a failover ended the last one.
  Status relink_control();
  // Empties every table but the accounts, and gives each account its opening balance back.
  Status reset();
  // The connection create() used: idle between runs, it resets, audits and asks the server who
  // waits for whom.
  Connection& control() { return control_; }
  // Where its connections go: the server, inside the scratch schema or database.
  const Locator& locator() const { return scratch_; }
  // The schema or database's name (tests look it up, and check it is gone).
  const std::string& name() const { return name_; }

 private:
  Locator server_;                // as given
  Locator scratch_;               // the same server, inside the scratch schema or database
  mutable size_t connected_ = 0;  // connections made: on a cluster, the next one's node
  std::string name_;
  Connection admin_;  // on the database the URL names: creates and drops the scratch one
  Connection control_;
};

// A name for a run's scratch schema, database or Redis keys, unique across processes on one
// machine (the pid) and across machines sharing a server (the clock's nanoseconds when the
// process made its first one). Never printed, so output stays the same from run to run.
std::string scratch_name();

// On a cluster URL that does not say otherwise, every statement first waits until its node has
// applied what the cluster committed before it (wsrep_sync_wait=15): a run then sees the same
// rows whichever node each connection reached, and gives the same answers every time. A URL's
// own ?wsrep_sync_wait=0 shows the stale reads, which vary from run to run.
Locator with_causal_reads(const Locator& server);

// The connection options explore uses on a server: a lock wait ends when the server lets it go,
// or after `kServerWaitGuardMs`, a guard against a hang, not a part of any schedule.
ConnectionOptions scratch_server_options(Isolation isolation);
using limits::kServerWaitGuardMs;

// How long reconnect() waits for a topology to take sessions again: longer than a failover
// takes (PostgreSQL behind Patroni promotes a replica in about 10 s on a loaded machine).
inline constexpr int64_t kRelinkWaitMs = 120'000;

}  // namespace idemlab
