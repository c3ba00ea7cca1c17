// Scratch keys in Redis: a prefix per run, deleted at its end.
#include "sim/shared/scratch_redis.h"

#include "sim/shared/scratch_server.h"

namespace idemlab {

Status ScratchRedis::create(const RedisLocator& redis, ScratchRedis* out) {
  ASSIGN_OR_RETURN(out->store_, open_redis_scratch(redis, scratch_name() + ":"));
  return Status::ok();
}

ScratchRedis::~ScratchRedis() {
  if (store_) (void)store_->clear_scratch();
}

}  // namespace idemlab
