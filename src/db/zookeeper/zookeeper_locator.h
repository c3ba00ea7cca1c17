// Where --locks says transfer locks live: a ZooKeeper ensemble.
#pragma once

#include <string>
#include <string_view>

#include "core/limits.h"
#include "core/status.h"
#include "db/topology.h"

namespace idemlab {

struct ZooKeeperLocator {
  std::string hosts;  // "host:port[,host:port...]", as zookeeper_init takes it
  // ?session_ms=N: the session timeout the client asks for, and so the lock's lease: a holder
  // that sends no heartbeat for this long (a stopped process) loses its session and its lock.
  // The server bounds it to [2, 20] times its tickTime.
  int session_ms = 10000;
  int connect_timeout_s = defaults::kServerWaitS;  // ?connect_timeout=S
  std::string shown;                               // the URL as given
  Topology topology;                               // one server, or an ensemble
};

// Reads zookeeper://host:port[,host:port...][?session_ms=N&connect_timeout=S]; anything else
// is a usage error.
Status parse_zookeeper_locator(std::string_view text, ZooKeeperLocator* out);

}  // namespace idemlab
