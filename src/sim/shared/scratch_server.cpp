// Scratch ledgers on servers: a schema (PostgreSQL) or database (MariaDB) per run.
#include "sim/shared/scratch_server.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "core/interrupt.h"
#include "db/schema/server_ledger.h"

namespace idemlab {

std::string scratch_name() {
  static const uint64_t stamp = static_cast<uint64_t>(
      std::chrono::steady_clock::now().time_since_epoch().count() & 0xffffffff);
  static std::atomic<int> made{0};
  return fmt::format("idemlab_scratch_{}_{:x}_{}", ::getpid(), stamp, made++);
}

Locator with_causal_reads(const Locator& server) {
  Locator out = server;
  if (server.topology.kind != TopologyKind::kCluster) return out;
  const auto given = [&](const auto& parameter) { return parameter.first == "wsrep_sync_wait"; };
  if (std::none_of(out.parameters.begin(), out.parameters.end(), given))
    out.parameters.emplace_back("wsrep_sync_wait", "15");
  return out;
}

ConnectionOptions scratch_server_options(Isolation isolation) {
  ConnectionOptions options;
  options.busy_timeout_ms = kServerWaitGuardMs;
  options.isolation = isolation;
  return options;
}

// Made and dropped whole, whatever signal comes meanwhile (core/interrupt.h): a statement cut
// after the server took it would go on there without the run, and a scratch ledger made or
// filled behind the run's back is one its destructor misses, or one its drop deadlocks with.
Status ScratchServer::create(const Locator& server, const std::vector<OpeningBalance>& accounts,
                             ScratchServer* out) {
  const UncutWaits uncut;
  const EngineTraits& traits = engine_traits(server.engine);
  out->server_ = server;
  ASSIGN_OR_RETURN(out->admin_, open_on_any_member(server, {}));
  out->name_ = scratch_name();  // named before it is made: the destructor drops it if it is
  const std::string create = fmt::format(fmt::runtime(traits.scratch_create_sql), out->name_);
  if (Status status = out->admin_.exec_script(create.c_str()); !status.is_ok()) {
    // A server gone or busy (a failover under way) is for later: 75, as the status says.
    if (status.code() == StatusCode::kUnavailable || status.code() == StatusCode::kBusy)
      return status;
    return Status::ledger(
        fmt::format("{}: cannot make a scratch ledger: {}", server.shown, status.message()));
  }
  out->scratch_ = with_causal_reads(server);
  if (traits.scratch_is_schema)
    out->scratch_.parameters.emplace_back("options", "-csearch_path=" + out->name_);
  else
    out->scratch_.database = out->name_;
  ASSIGN_OR_RETURN(out->control_, open_on_any_member(out->scratch_, {}));
  return create_server_schema(out->control_, accounts);
}

// A twin's statement that a signal cut may still be running on the server, holding locks the
// drop needs while it waits for one the drop took: the server then ends one of the two as a
// deadlock, and the next try finds the way clear.
ScratchServer::~ScratchServer() {
  if (name_.empty()) return;
  control_ = Connection();
  const UncutWaits uncut;
  const std::string drop =
      fmt::format(fmt::runtime(engine_traits(server_.engine).scratch_drop_sql), name_);
  constexpr int kTries = 5;
  for (int tried = 0; tried < kTries; ++tried) {
    if (!admin_.is_open()) {  // the server ended the last one: the drop goes through a new one
      Result<Connection> again = open_on_any_member(server_, {});
      if (!again.is_ok()) return;
      admin_ = std::move(*again);
    }
    admin_.rollback_if_open();
    const Status dropped = admin_.exec_script(drop.c_str());
    if (dropped.is_ok()) return;
    if (dropped.reason() == "connection_lost") admin_ = Connection();
  }
}

// On a cluster each connection goes to the next node in turn, so that twins run on different
// nodes; the control connection stays on the node the URL picks.
Result<Connection> ScratchServer::connect(const ConnectionOptions& options) const {
  return open_connection(on_member(scratch_, member_for_turn(scratch_.topology, connected_++)),
                         options);
}

namespace {

// Whether a failed connect says the topology is settling (a failover under way), so that a
// later try may find the new primary; a refused login or an unknown database does not.
bool settling(const Status& status) {
  return status.code() == StatusCode::kUnavailable || status.code() == StatusCode::kBusy;
}

}  // namespace

Result<Connection> ScratchServer::reconnect(const ConnectionOptions& options) const {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kRelinkWaitMs);
  const int tries = spreads_connections(scratch_.topology) ? scratch_.topology.members() : 1;
  for (;;) {
    Result<Connection> made = connect(options);
    for (int tried = 1; tried < tries && !made.is_ok(); ++tried) {
      if (made.status().code() == StatusCode::kUsage) return made;
      made = connect(options);  // the next node's turn
    }
    // On a cluster every node refused: they may be coming back (a node restarted).
    if (made.is_ok() || !(settling(made.status()) || tries > 1) ||
        std::chrono::steady_clock::now() >= deadline)
      return made;
    RETURN_IF_ERROR(check_interrupt());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

Status ScratchServer::relink_control() {
  ASSIGN_OR_RETURN(control_, reconnect({}));
  return Status::ok();
}

// Uncut too: a reset cut half way would go on emptying table after table on the server, and the
// drop would meet it at each.
Status ScratchServer::reset() {
  const UncutWaits uncut;
  control_.rollback_if_open();
  return control_.exec_script(engine_traits(server_.engine).scratch_reset_sql);
}

}  // namespace idemlab
