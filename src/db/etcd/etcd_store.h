// EtcdStore: transfer locks kept in etcd (--locks etcd://...), by the recipe etcd's
// documentation gives for a lock with a fencing token: a lease, and a key under it.
// - acquire_lock: grant a lease of the lock's TTL (etcd grants at least 2 s), then in one
//   transaction: if the key /idemlab-locks/<name> was never created (create_revision 0), put
//   it with the lease. The holder's fence is the key's create_revision, the revision of that
//   put, which grows with every grant. Taken: the lease is revoked and the answer is "taken"
//   (lock-table does not queue).
// - check_lock_owner: a linearizable read of the key: held while it is there under this
//   holder's lease. No keepalive is sent, so a lease lives its TTL: a holder stopped past it
//   loses the lock without knowing it.
// - release_lock: revoke this holder's lease (the key goes with it; a lease gone already
//   releases nothing); release_lock_any_owner: delete the key.
// Tokens are not kept here.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "db/etcd/etcd_client.h"
#include "db/guard_store.h"

namespace idemlab {

class EtcdStore final : public GuardStore {
 public:
  explicit EtcdStore(std::unique_ptr<EtcdClient> client) : client_(std::move(client)) {}

  StepResult run(Stmt id, const Binds& binds) override;
  std::string_view statement_text(Stmt id) const override;
  void set_trace(TraceSink sink) override {
    trace_ = sink ? std::make_unique<TraceSink>(std::move(sink)) : nullptr;
  }
  const std::string& location() const override { return client_->shown(); }
  std::string node() const override { return client_->member(); }
  std::string node_role() const override { return "the etcd member that answered"; }
  std::string node_label() const override { return "member"; }
  bool link_lost() const override { return lost_; }

 private:
  StepResult acquire(const std::string& key, const std::string& owner, int64_t ttl_s);
  StepResult held(const std::string& key);
  StepResult release(const std::string& key);
  StepResult release_all(const std::string& key);
  // POSTs to etcd, traced.
  StepResult call(std::string_view path, const nlohmann::json& body, nlohmann::json* reply,
                  long* http);

  std::unique_ptr<EtcdClient> client_;
  std::map<std::string, std::string> leases_;  // a lock's key (base64) -> this holder's lease
  std::unique_ptr<TraceSink> trace_;
  bool lost_ = false;
};

Result<std::unique_ptr<EtcdStore>> open_etcd_store(const EtcdLocator& locator);

}  // namespace idemlab
