// A Galera node sees only its own lock waits, and ends only its own statements: a session on
// another node is asked about there, through a link opened when first needed.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "db/backend.h"
#include "db/locator.h"

namespace idemlab {

class OtherNodes {
 public:
  // `locator` names this connection's node (locator.node) among the cluster's members.
  explicit OtherNodes(const Locator& locator) : locator_(locator) {}

  // On a cluster the node's number rides above the connection id, which each node counts on
  // its own: a session names its node, and its thread there.
  static int64_t session_of(int node, uint64_t thread) {
    return (int64_t{node} << 32) | static_cast<int64_t>(thread & 0xffffffff);
  }
  static int node_of(int64_t session) { return static_cast<int>(session >> 32); }
  static int64_t thread_of(int64_t session) { return session & 0xffffffff; }

  // Node `node`'s word on which of its own `sessions` wait for a lock. A node that cannot be
  // reached now (it died, or is rejoining) shows none waiting: each one's own socket tells the
  // caller that it is gone. Any other failure is returned.
  Status lock_waits(int node, const std::vector<int64_t>& sessions, std::vector<bool>* waiting);
  // Ends the statement `session` runs on its node; nothing to end on a node that cannot be
  // reached now, for the same reason.
  Status cancel_statement(int64_t session);

 private:
  Result<NonBlocking*> reach(int node);
  // A link that failed is dropped, and opened again when next needed.
  Status unreachable(int node);

  const Locator& locator_;
  std::map<int, std::unique_ptr<Backend>> nodes_;
};

}  // namespace idemlab
