// hiredis: what the store learns of its server's replication, and asks of it: the primary a
// replica follows (ROLE), and WAIT for the replicas a guard write must reach (?wait=N).
#include <fmt/format.h>
#include <hiredis/hiredis.h>

#include <string>

#include "db/redis/hiredis.h"
#include "db/redis/redis_store.h"

namespace idemlab {

namespace {

// ROLE's answer, or null. The caller frees it.
redisReply* ask_role(const Hiredis& api, redisContext* context) {
  const char* role[] = {"ROLE"};
  const size_t length[] = {4};
  return static_cast<redisReply*>(api.command_argv(context, 1, role, length));
}

bool role_is(const redisReply* reply, std::string_view name) {
  return reply && reply->type == REDIS_REPLY_ARRAY && reply->elements >= 3 &&
         reply->element[0]->type == REDIS_REPLY_STRING &&
         std::string_view(reply->element[0]->str) == name;
}

}  // namespace

std::string RedisStore::replica_hint() {
  redisReply* reply = ask_role(*api_, context_);
  std::string hint;
  if (role_is(reply, "slave") && reply->element[1]->type == REDIS_REPLY_STRING &&
      reply->element[2]->type == REDIS_REPLY_INTEGER)
    hint = fmt::format(
        " ({} is a replica of {}:{}; a redis:// URL names one server, which idemlab does not "
        "follow through a failover: give the primary's URL, or redis-sentinel://SENTINELS/MASTER)",
        shown_, reply->element[1]->str, reply->element[2]->integer);
  if (reply) api_->free_reply(reply);
  return hint;
}

// How many replicas the primary lists as connected (ROLE), or -1 when it does not say.
int RedisStore::connected_replicas() {
  redisReply* reply = ask_role(*api_, context_);
  const int count = role_is(reply, "master") && reply->element[2]->type == REDIS_REPLY_ARRAY
                        ? static_cast<int>(reply->element[2]->elements)
                        : -1;
  if (reply) api_->free_reply(reply);
  return count;
}

StepResult RedisStore::replicated(StepResult written) {
  redisReply* reply = nullptr;
  StepResult waited =
      command({"WAIT", std::to_string(wait_replicas_), std::to_string(wait_ms_)}, &reply);
  if (!waited.ok()) return waited;
  const long long acknowledged = reply->integer;
  api_->free_reply(reply);
  if (acknowledged >= wait_replicas_) return written;
  // WAIT never undoes the write: the primary has it, a failover may forget it. Unknown, and not
  // a lost link: the connection stays.
  const int connected = connected_replicas();
  const std::string replicas = connected < 0
                                   ? ""
                                   : fmt::format("; the primary has {} replica{} connected",
                                                 connected, connected == 1 ? "" : "s");
  return {StepCode::kUnreplicated, 0, std::nullopt,
          fmt::format("WAIT {} {}: {} of {} replicas acknowledged the guard write within {} ms{}",
                      wait_replicas_, wait_ms_, acknowledged, wait_replicas_, wait_ms_, replicas)};
}

}  // namespace idemlab
