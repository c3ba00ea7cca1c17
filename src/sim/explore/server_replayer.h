// The replayer for explore on PostgreSQL and MariaDB (server_replayer.cpp): a statement a step,
// each settled on the server's word (server_settle.h).
#pragma once

#include <memory>

#include "sim/explore/replayer.h"

namespace idemlab {

Result<std::unique_ptr<Replayer>> make_server_replayer(const Strategy& strategy, Pitfall pitfall,
                                                       const ExploreConfig& config);

}  // namespace idemlab
