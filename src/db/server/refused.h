// A server that refuses a connection for now: it is full, starting up or shutting down. Nothing
// was sent, and the same command a moment later can work, so it is a retryable error (exit 75,
// reason server_busy), never "unreachable" (exit 8), which tells a script to give up. Wrong
// credentials, an unknown database and a host that resolves nowhere stay ledger errors.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"

namespace idemlab {

// A server that took the connection and said nothing within connect_timeout (`seconds`): the
// same words for every server idemlab talks to (a database, Redis, the broker): exit 75,
// reason no_answer. Nothing was sent but the greeting: retry.
Status no_answer(std::string_view shown, int seconds);

// What held the server back, in words: "its max_connections", "it is starting up", ...
Status server_busy(std::string_view shown, std::string_view what_was_met);

// The limit a PostgreSQL connection failure names, from its message: libpq gives no SQLSTATE
// for a connection that never opened (53300 too many connections, 57P03 starting up, 57P01
// shutting down), so the server's own words are read. Nothing when it names none.
// `connect_timeout_s` is the wait the client was given, named when it ran out.
std::optional<std::string> postgres_refusal(std::string_view message, int connect_timeout_s);

// The same for MariaDB's error number and message: 1040 too many connections, 1203 the server's
// max_user_connections, 1226 an account's own limit (its message names which resource), 1053
// shutting down.
std::optional<std::string> mariadb_refusal(unsigned error_number, std::string_view message);

}  // namespace idemlab
