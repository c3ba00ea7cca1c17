// Schema upgrades: an older ledger is brought up to this build's schema the first time it is
// opened, in one transaction, so that it is either upgraded whole or left as it was.
#pragma once

#include "core/status.h"
#include "db/connection.h"

namespace idemlab {

// Upgrades the ledger on `connection` (open for writing) from `version` to kSchemaVersion.
// Version 1 -> 2: requests are identified by (source, biz_seq). Every existing request gets
// the default source "api"; its journal, flow rows, dedup record, token, lock and attempts keep
// saying what they said. Version 2 -> 3: adds the account_limit table, empty.
Status migrate_ledger(Connection& connection, int64_t version);

}  // namespace idemlab
