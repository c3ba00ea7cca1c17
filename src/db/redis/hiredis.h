// hiredis's functions, loaded on first use (core/client_library.h): a SQLite-only run never
// loads the library.
#pragma once

#include <hiredis/hiredis.h>

#include "core/status.h"

namespace idemlab {

struct Hiredis {
  decltype(&redisConnectWithTimeout) connect;
  decltype(&redisConnectUnixWithTimeout) connect_unix;
  decltype(&redisSetTimeout) set_timeout;
  decltype(&redisCommandArgv) command_argv;
  decltype(&freeReplyObject) free_reply;
  decltype(&redisFree) free;
};

Status load_hiredis(const Hiredis** out);

}  // namespace idemlab
