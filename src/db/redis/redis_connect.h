// Reaching the Redis a --redis URL names: a socket, a host, or the primary a set of Sentinels
// name. With Sentinels, as their documentation asks of a client: each is asked in turn for the
// primary (SENTINEL get-master-addr-by-name), and the address it names is trusted only once the
// server there says it is a primary (ROLE): for a few seconds after a failover a demoted primary
// may still be named. A new connection asks again, so a client that lost its link, or met a
// READONLY answer, reaches the new primary by reconnecting.
#pragma once

#include "core/status.h"
#include "db/redis/hiredis.h"
#include "db/redis/redis_locator.h"

namespace idemlab {

// A connection with every answer bounded by the URL's connect_timeout. Nothing listening, or
// a refused password later, is a ledger error (exit 8); a server that accepts and stays silent,
// and Sentinels that name no primary answering as one, are unavailable (exit 75): a failover
// may be under way.
Result<redisContext*> connect_redis(const Hiredis& api, const RedisLocator& locator);

}  // namespace idemlab
