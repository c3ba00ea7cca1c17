// The stores that keep a strategy's tokens and locks apart from the ledger, chosen by their
// URL's scheme from one table: redis:// and redis-sentinel:// (Redis, tokens and locks),
// zookeeper:// (ZooKeeper, locks only). A new store is a row here and a folder under db/.
#pragma once

#include <memory>
#include <string_view>

#include "core/status.h"
#include "db/guard_store.h"
#include "db/topology.h"

namespace idemlab {

struct GuardStoreKind {
  std::string_view scheme;  // "redis", "redis-sentinel", "zookeeper"
  std::string_view option;  // the option that names it: --redis, --locks
  bool keeps_tokens;        // ZooKeeper keeps locks only
};

// The row `url`'s scheme names; a usage error (naming the option) when none does, or when the
// URL cannot be read. `topology` gets what its servers are to each other.
Result<const GuardStoreKind*> read_guard_store_url(std::string_view url, Topology* topology);

// Connects to the store `url` names (read_guard_store_url first).
Result<std::unique_ptr<GuardStore>> open_guard_store(std::string_view url);

}  // namespace idemlab
