// ScratchRedis: the tokens and locks of one simulated run, kept in Redis (--redis) while the
// ledger stays on SQLite or a server. Its keys live under a prefix no other run uses, expire on
// the run's virtual clock (open_redis_scratch, db/redis/redis_store.h), and are deleted when the
// ScratchRedis goes, an interrupted run included.
// It is the run's guard store, and rides out a failover under the run as a real client does: the
// command that meets it gets its answer, a lost link (an unknown outcome for its attempt), and
// the next command connects again through the URL's topology, which waits while the Sentinels
// promote a replica (connect_redis). What the new primary lacks (a key the old one had not
// passed on) is gone for the run, as it is for a real client. A Redis that cannot be reached
// again (nothing listening, no primary within the URL's connect_timeout) stops the run: 75.
#pragma once

#include <memory>

#include "db/redis/redis_store.h"

namespace idemlab {

class ScratchRedis final : public GuardStore {
 public:
  ScratchRedis() = default;
  ~ScratchRedis() override;
  ScratchRedis(const ScratchRedis&) = delete;
  ScratchRedis& operator=(const ScratchRedis&) = delete;

  static Status create(const RedisLocator& redis, ScratchRedis* out);

  // The run's store: every attempt shares it (Redis answers each command whole, at once).
  GuardStore& store() { return *this; }
  bool open() const { return store_ != nullptr; }
  // Deletes every key the run wrote (explore: between interleavings).
  Status reset();
  // Commands that met a lost link (each then connected again): explore runs an interleaving
  // cut by one again.
  int64_t losses() const { return losses_; }

  StepResult run(Stmt id, const Binds& binds) override;
  std::string_view statement_text(Stmt id) const override { return store_->statement_text(id); }
  void set_trace(TraceSink sink) override;
  const std::string& location() const override { return store_->location(); }
  std::string node() const override { return store_->node(); }

 private:
  // After a lost link: a new connection through the topology, the same keys.
  Status relink_if_lost();

  RedisLocator locator_;
  std::string prefix_;
  std::unique_ptr<RedisStore> store_;
  TraceSink trace_;  // handed to each connection
  int64_t losses_ = 0;
};

}  // namespace idemlab
