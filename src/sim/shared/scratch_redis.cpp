// Scratch keys in Redis: a prefix per run, deleted at its end.
#include "sim/shared/scratch_redis.h"

#include "sim/shared/scratch_server.h"

namespace idemlab {

Status ScratchRedis::create(const RedisLocator& redis, ScratchRedis* out) {
  out->locator_ = redis;
  out->prefix_ = scratch_name() + ":";
  ASSIGN_OR_RETURN(out->store_, open_redis_scratch(redis, out->prefix_));
  return Status::ok();
}

ScratchRedis::~ScratchRedis() {
  if (!store_ || store_->clear_scratch().is_ok()) return;
  // The run's connection broke (the run stopped for it): a new one clears the keys, if Redis is
  // there to take it. A Redis that restarted without persistence has none left to clear.
  store_.reset();
  (void)open_redis_scratch(locator_, prefix_);
}

}  // namespace idemlab
