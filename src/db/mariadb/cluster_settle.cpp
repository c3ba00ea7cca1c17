// Waiting for every node of a Galera cluster to apply what was committed, on the nodes' word
// (wsrep_last_committed), never a timer's.
#include "db/mariadb/cluster_settle.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/limits.h"
#include "core/parse.h"

namespace idemlab {

namespace {

// The seqno of the last transaction the node committed, its own or applied from another; -1
// when the node went away (a failover: it is left out from then on).
Result<int64_t> last_committed(Connection& node) {
  if (!node.is_open()) return -1;
  int64_t seqno = -1;
  const StepResult result =
      node.query("SHOW STATUS LIKE 'wsrep_last_committed'", {}, [&](const Row& row) {
        if (row.size() == 2 && !parse_whole(as_text(row[1]), 0, INT64_MAX, &seqno)) seqno = -1;
      });
  if (result.link_lost()) {
    node = Connection();
    return -1;
  }
  if (!result.ok() || seqno < 0)
    return Status::unavailable("cluster_unsettled",
                               fmt::format("a node did not say what it last committed: {}",
                                           result.error.empty() ? "no number" : result.error));
  return seqno;
}

}  // namespace

// A node that cannot be reached now (killed, restarting, refusing) is left out, as OtherNodes
// leaves it: the run's own connections are on the others, and a lost one makes the run connect
// again, and this open again.
Status ClusterSettle::open(const Locator& server) {
  nodes_.clear();
  if (server.topology.kind != TopologyKind::kCluster) return Status::ok();
  for (size_t node = 1; node <= server.nodes.size(); ++node) {
    Result<Connection> connection = open_connection(on_member(server, static_cast<int>(node)), {});
    if (!connection.is_ok() && connection.status().code() == StatusCode::kUsage)
      return connection.status();
    nodes_.push_back(connection.is_ok() ? std::move(*connection) : Connection());
  }
  return Status::ok();
}

Status ClusterSettle::settle() {
  if (nodes_.empty()) return Status::ok();
  std::vector<int64_t> seen(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    ASSIGN_OR_RETURN(seen[i], last_committed(nodes_[i]));
  }
  const int64_t newest = *std::max_element(seen.begin(), seen.end());
  if (newest < 0) return Status::unavailable("connection_lost", "no node of the cluster answered");
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::kServerWaitGuardMs);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    while (seen[i] >= 0 && seen[i] < newest) {
      if (std::chrono::steady_clock::now() > deadline)
        return Status::unavailable(
            "cluster_unsettled",
            fmt::format("node {} has not applied the cluster's commit {} in {} ms", i + 1, newest,
                        limits::kServerWaitGuardMs));
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      ASSIGN_OR_RETURN(seen[i], last_committed(nodes_[i]));
    }
  }
  return Status::ok();
}

}  // namespace idemlab
