// ScratchRedis: the tokens and locks of one simulated run, kept in Redis (--redis) while the
// ledger stays on SQLite or a server. Its keys live under a prefix no other run uses, expire on
// the run's virtual clock (open_redis_scratch, db/redis/redis_store.h), and are deleted when the
// ScratchRedis goes, an interrupted run included.
#pragma once

#include <memory>

#include "db/redis/redis_store.h"

namespace idemlab {

class ScratchRedis {
 public:
  ScratchRedis() = default;
  ~ScratchRedis();
  ScratchRedis(const ScratchRedis&) = delete;
  ScratchRedis& operator=(const ScratchRedis&) = delete;

  static Status create(const RedisLocator& redis, ScratchRedis* out);

  // The run's store: every attempt shares it (Redis answers each command whole, at once).
  GuardStore& store() { return *store_; }
  bool open() const { return store_ != nullptr; }
  // Deletes every key the run wrote (explore: between interleavings).
  Status reset() { return store_->clear_scratch(); }

 private:
  RedisLocator locator_;
  std::string prefix_;
  std::unique_ptr<RedisStore> store_;
};

}  // namespace idemlab
