// Where --redis says tokens and locks live: a unix socket or a host, a database number and a
// password that is never shown.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/limits.h"
#include "core/status.h"
#include "db/topology.h"

namespace idemlab {

struct RedisLocator {
  std::string socket;  // redis:///path/to/socket
  std::string host;    // redis://host:port/N
  int port = 6379;
  int database = 0;
  std::string password;  // redis://:password@host
  // How long the server may take to accept, and to answer each command: ?connect_timeout=S.
  int connect_timeout_s = defaults::kServerWaitS;
  // ?wait=N: after every guard write, WAIT for N replicas, at most ?wait_ms=T; fewer
  // acknowledgements answer the attempt as unknown (75), never as success. 0: no WAIT.
  int wait_replicas = 0;
  int wait_ms = 1000;
  std::string shown;  // with any password as ***
  // redis-sentinel://: the Sentinels to ask, in order, and the name they monitor the primary
  // by. The primary is then asked of them on every connection (redis_sentinel.h); host and
  // port are unused.
  std::vector<std::pair<std::string, int>> sentinels;
  std::string master_name;
  Topology topology;  // one server, or the primary the Sentinels name
};

// Reads --redis: redis:///path/sock, redis://[:password@]host[:port][/N], or
// redis-sentinel://[:password@]host:port[,host:port...]/MASTER (the password is the primary's),
// each with an optional query: connect_timeout=S, wait=N, wait_ms=T. Anything else is a usage error
// that never shows the password.
Status parse_redis_locator(std::string_view text, RedisLocator* out);

}  // namespace idemlab
