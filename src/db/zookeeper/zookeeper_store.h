// ZooKeeperStore: transfer locks kept in ZooKeeper (--locks zookeeper://...), the lock service
// the references name beside Redis, by its own recipe: each attempt creates an ephemeral
// sequential znode under /idemlab-locks/<lock name>, and holds the lock when its node is the
// lowest there. Ephemeral: the node lives as long as the client's session, so the session
// timeout is the lease, and a holder that stops sending heartbeats (a process the kernel
// stopped) loses its lock when the session expires, without knowing it. The node's creation
// zxid grows with every grant: the fence lock-table --fence carries into the ledger.
// - acquire_lock: create the node; the lowest holds, returning its czxid; any other deletes
//   its node again and answers "taken" (lock-table does not queue);
// - check_lock_owner: whether this holder's node still exists (an expired session: no);
// - release_lock: delete this holder's node; release_lock_any_owner: delete every node there.
// Tokens are not kept here.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "db/guard_store.h"
#include "db/zookeeper/zookeeper_calls.h"
#include "db/zookeeper/zookeeper_locator.h"

namespace idemlab {

class ZooKeeperStore final : public GuardStore {
 public:
  ZooKeeperStore(const ZooKeeperApi* api, zhandle_t* handle, std::string shown)
      : api_(api), calls_(api, handle), shown_(std::move(shown)) {}

  StepResult run(Stmt id, const Binds& binds) override;
  std::string_view statement_text(Stmt id) const override;
  void set_trace(TraceSink sink) override {
    trace_ = sink ? std::make_unique<TraceSink>(std::move(sink)) : nullptr;
  }
  const std::string& location() const override { return shown_; }
  bool link_lost() const override { return lost_; }

 private:
  StepResult run_lock_statement(Stmt id, const Binds& binds);
  StepResult acquire(const std::string& parent, const std::string& owner);
  StepResult held(const std::string& parent);
  StepResult release(const std::string& parent);
  StepResult release_all(const std::string& parent);
  // The result of a ZooKeeper call that failed with `rc`, naming `what`.
  StepResult failed(int rc, std::string_view what) const;
  void trace(const std::string& line) const;

  const ZooKeeperApi* api_;
  ZooKeeperCalls calls_;  // owns the client's handle
  std::string shown_;
  std::map<std::string, std::string> mine_;  // a lock's parent path -> this holder's node
  std::unique_ptr<TraceSink> trace_;
  bool lost_ = false;
};

// Connects, waiting at most the locator's connect_timeout for the session.
Result<std::unique_ptr<ZooKeeperStore>> open_zookeeper_store(const ZooKeeperLocator& locator);

}  // namespace idemlab
