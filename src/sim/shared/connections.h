// Connections a run on a server may hold at once, checked against what the server takes before
// the run starts, so that a run never stops half-way on "too many connections".
#pragma once

#include <cstdint>
#include <string>

#include "db/locator.h"
#include "sim/shared/scenario.h"

namespace idemlab {

// What one run needs, and what to lower when it is too much.
struct ConnectionNeed {
  int64_t connections = 0;
  std::string why;            // "200 clients × 5 attempts, and 4 of its own"
  std::string what_to_lower;  // "--concurrency to 18" (computed for the room there is)
};

// A simulation: every attempt of every client can be in flight at once (a slow attempt outlives
// its timeout while its retries arrive), each copy on a connection of its own, and 4 of its
// own (the scratch ledger's two, the client's, the busy writer's). `runs`: simulations at once.
ConnectionNeed simulation_need(const SimConfig& config, int64_t runs);
// explore: one connection per duplicate, one for the late retry, and the scratch ledger's two.
ConnectionNeed explore_need(int duplicates);

// Asks the server how many connections it takes now (connection_room, db/connection.h). Too
// few for the run at all: a usage error naming both numbers and what to change. Enough, but
// too many open now: server_busy (exit 75). `command` names the run ("simulate").
Status check_server_connections(const Locator& server, std::string_view command,
                                const ConnectionNeed& need);

}  // namespace idemlab
