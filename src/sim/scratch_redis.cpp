// Scratch keys in Redis: a prefix per run, deleted at its end.
#include "sim/scratch_redis.h"

#include "sim/scratch_server.h"

namespace idemlab {

Status ScratchRedis::create(const RedisLocator& redis, ScratchRedis* out) {
  if (Status status = open_redis_scratch(redis, scratch_name() + ":", &out->store_);
      !status.is_ok())
    return status;
  out->open_ = true;
  return Status::ok();
}

ScratchRedis::~ScratchRedis() {
  if (open_) (void)clear_redis_scratch(store_);
}

}  // namespace idemlab
