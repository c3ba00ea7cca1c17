// Scratch ledgers on servers: a schema (PostgreSQL) or database (MariaDB) per run.
#include "sim/shared/scratch_server.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>

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
  if (server.nodes.size() < 2) return out;
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

Status ScratchServer::create(const Locator& server, const std::vector<OpeningBalance>& accounts,
                             ScratchServer* out) {
  const EngineTraits& traits = engine_traits(server.engine);
  out->server_ = server;
  ASSIGN_OR_RETURN(out->admin_, open_connection(server, {}));
  const std::string name = scratch_name();
  const std::string create = fmt::format(fmt::runtime(traits.scratch_create_sql), name);
  if (Status status = out->admin_.exec_script(create.c_str()); !status.is_ok())
    return Status::ledger(
        fmt::format("{}: cannot make a scratch ledger: {}", server.shown, status.message()));
  out->name_ = name;
  out->scratch_ = with_causal_reads(server);
  if (traits.scratch_is_schema)
    out->scratch_.parameters.emplace_back("options", "-csearch_path=" + name);
  else
    out->scratch_.database = name;
  ASSIGN_OR_RETURN(out->control_, open_connection(out->scratch_, {}));
  return create_server_schema(out->control_, accounts);
}

ScratchServer::~ScratchServer() {
  if (name_.empty()) return;
  control_ = Connection();
  const std::string drop =
      fmt::format(fmt::runtime(engine_traits(server_.engine).scratch_drop_sql), name_);
  admin_.rollback_if_open();
  if (admin_.exec_script(drop.c_str()).is_ok()) return;
  // Its connection was lost (a signal cut the wait it was in, or the server ended it): the
  // drop goes through a new one.
  if (Result<Connection> again = open_connection(server_, {}); again.is_ok())
    (void)again->exec_script(drop.c_str());
}

// On a cluster each connection goes to the next node in turn, so that twins run on different
// nodes; the control connection stays on the node the URL picks.
Result<Connection> ScratchServer::connect(const ConnectionOptions& options) const {
  if (scratch_.nodes.size() < 2) return open_connection(scratch_, options);
  const int node = static_cast<int>(connected_++ % scratch_.nodes.size()) + 1;
  return open_connection(on_node(scratch_, node), options);
}

Status ScratchServer::reset() {
  control_.rollback_if_open();
  return control_.exec_script(engine_traits(server_.engine).scratch_reset_sql);
}

}  // namespace idemlab
