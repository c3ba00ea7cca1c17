// Ledgers on database servers: idemlab's tables created in a database its administrator made,
// and a database checked to be a ledger this build understands before anything runs on it.
#pragma once

#include <vector>

#include "db/connection.h"
#include "db/schema/ledger_file.h"

namespace idemlab {

// Creates the schema and accounts in the database `locator` names. Refuses a database that
// holds any table unless `force`, which drops idemlab's own tables only: any other stays.
Status create_server_ledger(const Locator& locator, const std::vector<OpeningBalance>& accounts,
                            bool force);

// Creates idemlab's tables and these accounts through `connection` (an empty schema or
// database on a server): init, and the simulator's scratch ledgers.
Status create_server_schema(Connection& connection, const std::vector<OpeningBalance>& accounts);

// Connects and checks idemlab_schema: a database without it is not a ledger, one with a newer
// version is refused. Both are ledger errors (exit 8), with nothing written.
Result<Connection> open_server_ledger(const Locator& locator, const ConnectionOptions& options);

}  // namespace idemlab
