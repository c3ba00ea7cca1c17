// Tests for db/server/refused: a server busy for now is told from one that refuses for good.
#include <doctest/doctest.h>

#include "db/server/refused.h"

using namespace idemlab;

TEST_CASE("PostgreSQL's full, starting and stopping servers are busy, by their own words") {
  CHECK(postgres_refusal("FATAL:  sorry, too many clients already", 10)
            .value()
            .find("max_connections") != std::string::npos);
  CHECK(postgres_refusal("FATAL:  too many connections for role \"x\"", 10).value() ==
        "the role's CONNECTION LIMIT is reached");
  CHECK(postgres_refusal("FATAL:  remaining connection slots are reserved for non-replication "
                         "superuser connections",
                         10)
            .has_value());
  CHECK(postgres_refusal("FATAL:  the database system is starting up", 10).value() ==
        "it is starting up");
  CHECK(postgres_refusal("connection to server on socket \"/x/.s.PGSQL.5432\" failed: timeout "
                         "expired",
                         120)
            .value() == "it did not accept the connection within connect_timeout (120 s)");
  CHECK(postgres_refusal("FATAL:  the database system is shutting down", 10).value() ==
        "it is shutting down");
}

TEST_CASE("wrong credentials, an unknown database and an unknown host are not busy") {
  CHECK_FALSE(postgres_refusal("FATAL:  password authentication failed for user \"x\"", 10));
  CHECK_FALSE(postgres_refusal("FATAL:  database \"nope\" does not exist", 10));
  CHECK_FALSE(postgres_refusal("could not translate host name \"nowhere\" to address", 10));
  CHECK_FALSE(mariadb_refusal(1045, "Access denied for user 'x'@'localhost'"));
  CHECK_FALSE(mariadb_refusal(1049, "Unknown database 'nope'"));
  CHECK_FALSE(mariadb_refusal(2005, "Unknown server host 'nowhere'"));
}

TEST_CASE("MariaDB's limits are named from the error and its message") {
  CHECK(mariadb_refusal(1040, "Too many connections").value().find("max_connections") !=
        std::string::npos);
  CHECK(mariadb_refusal(1226,
                        "User 'busy_tester' has exceeded the 'max_user_connections' resource "
                        "(current value: 200)")
            .value() == "the account's max_user_connections is reached");
  CHECK(mariadb_refusal(1053, "Server shutdown in progress").value() == "it is shutting down");
}

TEST_CASE("a busy server is a retryable error that says nothing was sent") {
  const Status status = server_busy("postgresql://x@/db", "it is starting up");
  CHECK(status.code() == StatusCode::kUnavailable);
  CHECK(status.reason() == "server_busy");
  CHECK(status.message() ==
        "postgresql://x@/db is busy: it is starting up; nothing was sent: retry later");
}
