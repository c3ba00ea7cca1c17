// Where --locks says transfer locks live: etcd's members (etcd://HOST:PORT[,HOST:PORT...]).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/limits.h"
#include "core/status.h"
#include "db/topology.h"

namespace idemlab {

struct EtcdLocator {
  std::vector<std::string> members;                // "host:port", in the order given
  int connect_timeout_s = defaults::kServerWaitS;  // ?connect_timeout=S: each request's bound
  std::string shown;                               // the URL as given
  Topology topology;                               // one member, or a cluster's
};

// Reads etcd://host:port[,host:port...][?connect_timeout=S]; anything else is a usage error.
Status parse_etcd_locator(std::string_view text, EtcdLocator* out);

}  // namespace idemlab
