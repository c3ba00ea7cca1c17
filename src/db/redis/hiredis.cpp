// Loading hiredis.
#include "db/redis/hiredis.h"

#include "core/client_library.h"

namespace idemlab {

namespace {

bool resolve_hiredis(const ClientLibrary& library, Hiredis* api) {
  return resolve(library, "redisConnectWithTimeout", &api->connect) &&
         resolve(library, "redisConnectUnixWithTimeout", &api->connect_unix) &&
         resolve(library, "redisSetTimeout", &api->set_timeout) &&
         resolve(library, "redisCommandArgv", &api->command_argv) &&
         resolve(library, "freeReplyObject", &api->free_reply) &&
         resolve(library, "redisFree", &api->free);
}

}  // namespace

Status load_hiredis(const Hiredis** out) {
  return load_client("libhiredis.so.0.14", "libhiredis0.14", resolve_hiredis, out);
}

}  // namespace idemlab
