// Scratch keys in Redis: a prefix per run, deleted at its end; a new connection after a lost link.
#include "sim/shared/scratch_redis.h"

#include <fmt/format.h>

#include "sim/shared/scratch_server.h"

namespace idemlab {

Status ScratchRedis::create(const RedisLocator& redis, ScratchRedis* out) {
  out->locator_ = redis;
  out->prefix_ = scratch_name() + ":";
  ASSIGN_OR_RETURN(out->store_, open_redis_scratch(redis, out->prefix_));
  return Status::ok();
}

ScratchRedis::~ScratchRedis() {
  if (!store_ || (!store_->link_lost() && store_->clear_scratch().is_ok())) return;
  // The run's connection broke (the run stopped for it): a new one clears the keys, if Redis is
  // there to take it. A Redis that restarted without persistence has none left to clear.
  store_.reset();
  (void)open_redis_scratch(locator_, prefix_);
}

// A Redis that cannot be reached again (nothing listening, or no primary within the URL's
// connect_timeout while Sentinels settle) is a lost connection: the run cannot go on.
Status ScratchRedis::relink_if_lost() {
  if (!store_->link_lost()) return Status::ok();
  Result<std::unique_ptr<RedisStore>> fresh = open_redis_store(locator_);
  if (!fresh.is_ok())
    return Status::unavailable(
        "connection_lost",
        fmt::format("lost the connection to {}: {}", store_->location(), fresh.status().message()));
  (*fresh)->use_scratch(prefix_);
  if (trace_) (*fresh)->set_trace(trace_);
  store_ = std::move(*fresh);
  return Status::ok();
}

Status ScratchRedis::reset() {
  RETURN_IF_ERROR(relink_if_lost());
  return store_->clear_scratch();
}

// A command that meets a lost link answers it (its attempt's answer is unknown); the next one
// connects again, or stops the run when Redis cannot be reached.
StepResult ScratchRedis::run(Stmt id, const Binds& binds) {
  if (Status relinked = relink_if_lost(); !relinked.is_ok())
    throw StatusError{Status::unavailable("connection_lost",
                                          fmt::format("{}; the run stopped", relinked.message()))};
  StepResult result = store_->run(id, binds);
  if (result.link_lost()) ++losses_;
  return result;
}

void ScratchRedis::set_trace(TraceSink sink) {
  trace_ = sink;
  store_->set_trace(std::move(sink));
}

}  // namespace idemlab
