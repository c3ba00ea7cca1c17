// A URL naming one server or a group of them, each as HOST:PORT, joined by commas
// (zookeeper://..., etcd://...), and the key=value settings of its query.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "db/topology.h"

namespace idemlab {

struct MemberListUrl {
  std::string hosts;  // "host:port[,host:port...]"
  Topology topology;  // one server, or an ensemble
  std::vector<std::pair<std::string_view, std::string_view>> settings;  // views into the text
};

// Reads SCHEME://HOST:PORT[,HOST:PORT...][/][?KEY=VALUE&...]; `bad` makes the error for a
// reason (a usage error naming the option and the form expected).
Status parse_member_list_url(std::string_view scheme, std::string_view text,
                             const std::function<Status(std::string_view)>& bad,
                             MemberListUrl* out);

}  // namespace idemlab
