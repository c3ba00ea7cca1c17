// Topology: how the servers one URL names stand to each other, read once from the URL, named
// the same way in every output, and the one rule for which of them a connection uses.
//   server      one server (or a SQLite file)
//   candidates  failover candidates of which one takes writes: libpq's several hosts with
//               target_session_attrs, as the clients of an HA manager (Patroni,
//               pg_auto_failover) name a PostgreSQL primary and its standbys; the client library
//               tries each in turn and keeps the first that gives the session asked for
//   cluster     several nodes that all take writes (a MariaDB Galera cluster)
//   sentinels   a Redis primary that Sentinels name, asked of them on every connection
//   ensemble    a ZooKeeper ensemble, which its client library follows by itself
// A lost link is never mended in place: the connection is dropped, and the next one is resolved
// through the topology again (db/deployment.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idemlab {

enum class TopologyKind : uint8_t { kServer, kCandidates, kCluster, kSentinels, kEnsemble };

struct Topology {
  TopologyKind kind = TopologyKind::kServer;
  int pinned = 0;       // a cluster: the node ?node=N picks, 1-based; 0: none
  std::string session;  // candidates: the session asked for (target_session_attrs)
  // Each member as the URL names it (HOST:PORT, a socket's folder or path), in its order; none
  // for a SQLite file or the client library's default socket.
  std::vector<std::string> names;

  // The servers the URL names: at least one.
  int members() const { return std::max(1, static_cast<int>(names.size())); }
};

// "a:1,b:2" -> {"a:1", "b:2"}: the members of a comma-separated list, in its order.
std::vector<std::string> split_members(std::string_view list);

// "server", "candidates", "cluster", "sentinels", "ensemble": the word JSON and tests use.
std::string_view topology_kind_name(TopologyKind kind);

// In words, for messages and listings: "one server", "a Galera cluster of 3 nodes", "2 failover
// candidates, the read-write one taken", "the primary 3 Sentinels name".
std::string topology_text(const Topology& topology);

// The member a connection uses, 1-based; 0 where the topology chooses for itself (one server,
// failover candidates, Sentinels, an ensemble). `turn` numbers the connections a command opens
// to one store, from 0: on a cluster no ?node= pins, turn T uses node (T mod members) + 1, so a
// command that keeps several connections (serve's pool, consume) spreads them over every node
// and a one-attempt command (turn 0) uses node 1; with ?node=N every turn uses node N.
int member_for_turn(const Topology& topology, uint64_t turn);

// Whether a command's connections are spread over several members (a cluster no ?node= pins).
bool spreads_connections(const Topology& topology);

// Whether the session asked of failover candidates is one that takes writes: libpq's
// target_session_attrs read-write or primary. Without one, a write may reach a standby.
bool session_takes_writes(std::string_view session);

}  // namespace idemlab
