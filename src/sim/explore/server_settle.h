// ServerSettle: how explore on a server learns that a statement it sent has ended, on the
// server's own word and never a timer's. After each step every statement in flight either has
// its answer or waits for a lock another attempt's open transaction holds (pg_blocking_pids,
// INNODB_LOCK_WAITS); when every attempt left waits, the server ends it (a deadlock's victim,
// a lock wait limit). Each answer is delivered to its attempt's stepper, in an order that does
// not depend on which socket heard first. Internal to src/sim/explore/ (server_replayer.cpp).
#pragma once

#include <string>
#include <vector>

#include "db/connection.h"
#include "db/mariadb/cluster_settle.h"
#include "sim/explore/server_run_state.h"

namespace idemlab {

class ServerSettle {
 public:
  // `control` asks the server who waits for whom; `connections` and `sessions` are the
  // attempts' (the server's number for each); `cluster` settles what a commit sets off. All
  // outlive it.
  ServerSettle(const ExploreConfig& config, Connection& control, ClusterSettle& cluster,
               const std::vector<Connection>& connections, const std::vector<int64_t>& sessions)
      : config_(config),
        control_(control),
        cluster_(cluster),
        connections_(connections),
        sessions_(sessions) {}

  // Settles every statement in flight, `cause` (the one just sent, or -1) first.
  Status settle_all(ServerRunState& s, int cause);
  // Every attempt left waits: gathers what the server ends, then settles the rest.
  Status await_server(ServerRunState& s);

 private:
  Status settle(ServerRunState& s, int attempt, int cause, bool* answered);
  bool closes_ring_answered_at_once(const ServerRunState& s, const std::vector<int>& holders) const;
  Status holders(const ServerRunState& s, int attempt, std::vector<int>* out);
  void deliver(ServerRunState& s, int attempt, StepResult result, int cause);
  void record_step(ServerRunState& s, int attempt, const StepResult& result, std::string detail);

  const ExploreConfig& config_;
  Connection& control_;
  ClusterSettle& cluster_;
  const std::vector<Connection>& connections_;
  const std::vector<int64_t>& sessions_;
};

}  // namespace idemlab
