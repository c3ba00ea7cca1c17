// RedisStore: one-time tokens and transfer locks kept in Redis, as the references keep them,
// while the ledger stays in its SQL database. It serves the guard statements only
// (statement_is_guard, statements.h), each as the Redis commands the references name:
// - insert_token: SET token:<t> PX <ttl>;
// - consume_token: DEL token:<t> in one script that also notes who used it (token-used:<t>),
//   so a repeat is answered as one; consume_token_unchecked (check-then-delete): the same DEL,
//   its count ignored;
// - select_token: the token's remaining TTL, or who used it; an expired token is gone, as
//   Redis forgets it: unknown, not expired;
// - acquire_lock: SET lock:<source>:<biz_seq> <owner> NX PX <ttl>; check_lock_owner: GET;
//   release_lock: a Lua compare-and-delete; release_lock_any_owner: a plain DEL.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "db/backend.h"

namespace idemlab {

class Connection;

struct RedisLocator {
  std::string socket;  // redis:///path/to/socket
  std::string host;    // redis://host:port/N
  int port = 6379;
  int database = 0;
  std::string password;  // redis://:password@host
  std::string shown;     // with any password as ***
};

// Reads --redis: redis:///path/sock or redis://[:password@]host[:port][/N]. Anything else is a
// usage error that never shows the password.
Status parse_redis_locator(std::string_view text, RedisLocator* out);

// Connects (hiredis, loaded on first use); an unreachable server or a refused password is a
// ledger error (exit 8).
Status open_redis_store(const RedisLocator& locator, Connection* out);

// A store for one simulated run: its keys live under `prefix` (a name no other run uses), and
// expire on the run's virtual clock, the ":now" each command carries, not on Redis's own:
// - a key written with a time to live is written as the references write it (SET ... PX), and
//   its deadline in virtual time is noted in a sorted set, <prefix>deadlines;
// - before every command, the keys whose deadline is past are deleted (a script), as Redis
//   deletes a key touched past its time. So a lock expires at the same point of every replay,
//   however long the run takes on the wall clock.
// In Redis's own time a scratch key lasts a day: the run deletes its keys itself.
Status open_redis_scratch(const RedisLocator& locator, std::string prefix, Connection* out);
// Deletes every key a scratch store wrote (it must be one open_redis_scratch made).
Status clear_redis_scratch(Connection& store);

}  // namespace idemlab
