// ClusterSettle: on a Galera cluster, waits until every node has applied what any node
// committed. A commit on one node aborts, on another, a transaction holding the rows it
// writes, when that node applies it: asynchronously, so without this the victim learns it at
// its next statement in one run and a statement later in another. Explore settles after each
// commit, so that exploring on a cluster gives the same answers every time. (The simulator
// does not: its statements are in flight together, and another node's applier races them.)
// On one server it does nothing.
#pragma once

#include <vector>

#include "db/connection.h"
#include "db/locator.h"

namespace idemlab {

class ClusterSettle {
 public:
  // One connection to each of the nodes `server` names (none for a single server), less
  // those that cannot be reached now.
  Status open(const Locator& server);
  // Until every node's last committed transaction is the newest any node has (bounded by
  // limits::kServerWaitGuardMs: past it, unavailable). A node that went away is left out; with
  // none left, a lost link.
  Status settle();
  bool on_cluster() const { return !nodes_.empty(); }

 private:
  std::vector<Connection> nodes_;
};

}  // namespace idemlab
