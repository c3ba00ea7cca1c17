// The options every command that runs attempts shares (the strategy subcommands, serve,
// consume), and the one Deployment (db/deployment.h) they make of them: --db, --redis, --locks
// and --fence, --read-db and --read-your-writes, --isolation, --busy-timeout-ms. Each command
// offers the ones that mean something for it; the checks and their words are the same for all.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/command.h"
#include "core/limits.h"
#include "db/deployment.h"
#include "ledger/read_split.h"

namespace idemlab {

struct DeploymentFlags {
  std::string db = "idemlab.db";
  std::string redis;              // tokens and locks in Redis
  std::string locks;              // lock-table's locks in ZooKeeper
  bool fence = false;             // lock-table: the ledger checks each grant's fence
  std::string read_db;            // reads outside a write transaction on a standby
  bool read_your_writes = false;  // ... trusted only once it has caught up
  std::string isolation;
  int busy_timeout_ms = defaults::kBusyTimeoutMs;
};

// --read-db URL ($IDEMLAB_READ_DB). `what` finishes the help text: what goes to the standby.
void add_read_db_option(CLI::App* command, std::string* read_db, std::string_view what);
// --read-db and --read-your-writes, for the commands that run attempts.
void add_attempt_read_options(CLI::App* command, DeploymentFlags* flags);

// The deployment the flags name, for `strategy` (nullptr: a command that runs several, the
// HTTP pages' token strategy among them): every usage error a command line can make here, in
// the same words whichever command it is. Connects to nothing.
Deployment deployment_of(DeploymentFlags flags, const Strategy* strategy,
                         bool wait_in_process = false);

// Opens the first links and checks them before any attempt: a missing or foreign ledger, an
// unreachable store, a --read-db that is no standby of --db, each refused with its one line.
Links open_checked_links(const Deployment& deployment);

// The read split for an attempt on `links`: none without a standby.
std::unique_ptr<ReadSplit> read_split_of(Links& links, const DeploymentFlags& flags);

// Where an attempt's reads went, for its answer: {"standby": N, "primary": M,
// "standby_server": URL, "standby_replayed": LSN or null} and " (reads: N on the standby, M on
// the primary ...)".
nlohmann::ordered_json reads_json(const ReadSplit& reads);
std::string reads_text(const ReadSplit& reads);

}  // namespace idemlab
