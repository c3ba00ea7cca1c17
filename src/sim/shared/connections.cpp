// The connections a run needs against those a server takes.
#include "sim/shared/connections.h"

#include <fmt/format.h>

#include <algorithm>

#include "db/connection.h"

namespace idemlab {

namespace {

constexpr int64_t kOwnConnections = 4;  // the scratch ledger's admin and control, client, busy

int64_t copies_per_attempt(const SimConfig& config) {
  int64_t copies = 1;
  for (const FaultSpec& fault : config.faults)
    if (fault.kind == FaultKind::kDoubleSubmit || fault.kind == FaultKind::kRedeliver ||
        fault.kind == FaultKind::kRepublish)
      copies += fault.count;
  return copies;
}

}  // namespace

ConnectionNeed simulation_need(const SimConfig& config, int64_t runs) {
  const int64_t clients = std::min<int64_t>(config.concurrency, config.requests);
  const int64_t per_client = copies_per_attempt(config) * config.retry.attempts;
  ConnectionNeed need;
  need.connections = runs * (clients * per_client + kOwnConnections);
  need.why = fmt::format(
      "{}{} clients × {} attempts{}, and {} of its own{}",
      runs > 1 ? fmt::format("{} runs at once × (", runs) : "", clients, config.retry.attempts,
      per_client > config.retry.attempts ? fmt::format(" × {} copies", copies_per_attempt(config))
                                         : "",
      kOwnConnections, runs > 1 ? ")" : "");
  need.what_to_lower = "--concurrency";  // to how many: check_server_connections() says
  return need;
}

ConnectionNeed explore_need(int duplicates) {
  return {duplicates + 1 + 2,
          fmt::format("{} duplicates, a late retry and 2 of its own", duplicates), ""};
}

Status check_server_connections(const Locator& server, std::string_view command,
                                const ConnectionNeed& need) {
  ASSIGN_OR_RETURN(Connection asking, open_on_any_member(server, {}));
  ASSIGN_OR_RETURN(const ConnectionRoom room, connection_room(asking));
  const int64_t free = room.free() + 1;  // the asking connection closes before the run starts
  if (need.connections <= free) return Status::ok();
  const std::string needs = fmt::format("{} needs up to {} connections to {} ({})", command,
                                        need.connections, server.shown, need.why);
  if (need.connections > room.limit)
    return Status::usage(fmt::format(
        "{}, more than the {} its {} allows: {}raise {}", needs, room.limit, room.limit_name,
        need.what_to_lower.empty() ? "" : fmt::format("lower {}, or ", need.what_to_lower),
        room.limit_name));
  return Status::unavailable(
      "server_busy",
      fmt::format(
          "{}, and {} of the {} its {} allows are open now: retry when "
          "fewer are{}",
          needs, room.open - 1, room.limit, room.limit_name,
          need.what_to_lower.empty() ? "" : fmt::format(", or lower {}", need.what_to_lower)));
}

}  // namespace idemlab
