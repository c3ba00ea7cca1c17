// ScratchRedis: the tokens and locks of one simulated run, kept in Redis (--redis) while the
// ledger stays on SQLite or a server. Its keys live under a prefix no other run uses, expire on
// the run's virtual clock (open_redis_scratch, db/redis_store.h), and are deleted when the
// ScratchRedis goes, an interrupted run included.
#pragma once

#include "db/connection.h"
#include "db/redis_store.h"

namespace idemlab {

class ScratchRedis {
 public:
  ScratchRedis() = default;
  ~ScratchRedis();
  ScratchRedis(const ScratchRedis&) = delete;
  ScratchRedis& operator=(const ScratchRedis&) = delete;

  static Status create(const RedisLocator& redis, ScratchRedis* out);

  // The run's store: every attempt shares it (Redis answers each command whole, at once).
  Connection& store() { return store_; }
  bool open() const { return open_; }
  // Deletes every key the run wrote (explore: between interleavings).
  Status reset() { return clear_redis_scratch(store_); }

 private:
  Connection store_;
  bool open_ = false;
};

}  // namespace idemlab
