// The replayer for explore on SQLite (sqlite_replayer.cpp): a whole write transaction a step.
#pragma once

#include <memory>

#include "sim/explore/replayer.h"

namespace idemlab {

Result<std::unique_ptr<Replayer>> make_sqlite_replayer(const Strategy& strategy, Pitfall pitfall,
                                                       const ExploreConfig& config);

}  // namespace idemlab
