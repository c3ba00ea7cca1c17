// Topologies: their names and the rule for a connection's member.
#include "db/topology.h"

#include <fmt/format.h>

namespace idemlab {

std::vector<std::string> split_members(std::string_view list) {
  std::vector<std::string> out;
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    out.emplace_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

std::string_view topology_kind_name(TopologyKind kind) {
  switch (kind) {
    case TopologyKind::kServer:
      return "server";
    case TopologyKind::kCandidates:
      return "candidates";
    case TopologyKind::kCluster:
      return "cluster";
    case TopologyKind::kSentinels:
      return "sentinels";
    case TopologyKind::kEnsemble:
      return "ensemble";
  }
  return "server";
}

std::string topology_text(const Topology& topology) {
  switch (topology.kind) {
    case TopologyKind::kServer:
      return "one server";
    case TopologyKind::kCandidates:
      return fmt::format("{} failover candidates, the {} one taken", topology.members(),
                         topology.session.empty() ? "first reachable" : topology.session);
    case TopologyKind::kCluster:
      return topology.pinned > 0 ? fmt::format("node {} of a Galera cluster of {} nodes",
                                               topology.pinned, topology.members())
                                 : fmt::format("a Galera cluster of {} nodes", topology.members());
    case TopologyKind::kSentinels:
      return fmt::format("the primary {} Sentinel{} name", topology.members(),
                         topology.members() == 1 ? "" : "s");
    case TopologyKind::kEnsemble:
      return topology.members() == 1 ? "one server"
                                     : fmt::format("an ensemble of {} servers", topology.members());
  }
  return "one server";
}

int member_for_turn(const Topology& topology, uint64_t turn) {
  if (topology.kind != TopologyKind::kCluster) return 0;
  if (topology.pinned > 0) return topology.pinned;
  return static_cast<int>(turn % static_cast<uint64_t>(topology.members())) + 1;
}

bool spreads_connections(const Topology& topology) {
  return topology.kind == TopologyKind::kCluster && topology.pinned == 0 && topology.members() > 1;
}

bool session_takes_writes(std::string_view session) {
  return session == "read-write" || session == "primary";
}

}  // namespace idemlab
