// Tests for what the server backends share and map: named values split for positional clients,
// and each engine's error codes as strategies see them.
#include <doctest/doctest.h>

#include "db/mariadb/mariadb_backend.h"
#include "db/postgres/postgres_backend.h"
#include "db/server/server_text.h"
#include "db/sql_template.h"

using namespace idemlab;

TEST_CASE("named values are found outside quotes and casts") {
  const SqlTemplate sql = split_named_values(
      "SELECT ':no', \"a:b\", x::text FROM t WHERE a = :a AND b = :b_2 OR a = :a");
  REQUIRE(sql.names == std::vector<std::string>{":a", ":b_2", ":a"});
  CHECK(sql.pieces.front() == "SELECT ':no', \"a:b\", x::text FROM t WHERE a = ");
  std::vector<std::string> order;
  CHECK(numbered_placeholders(sql, &order) ==
        "SELECT ':no', \"a:b\", x::text FROM t WHERE a = $1 AND b = $2 OR a = $1");
  CHECK(order == std::vector<std::string>{":a", ":b_2"});
}

TEST_CASE("values are written in as literals for traces; a missing one is NULL") {
  const SqlTemplate sql = split_named_values("VALUES (:n, :t, :missing)");
  CHECK(sql_with_values(sql, {{":n", int64_t{42}}, {":t", std::string("it's")}}) ==
        "VALUES (42, 'it''s', NULL)");
}

TEST_CASE("a server's text column is read as an integer only for integer types") {
  CHECK(std::get<int64_t>(integer_or_text("-17", true)) == -17);
  CHECK(std::get<std::string>(integer_or_text("12", false)) == "12");
  CHECK(std::get<std::string>(integer_or_text("1.5", true)) == "1.5");
}

TEST_CASE("PostgreSQL's SQLSTATEs map to what a strategy does next") {
  CHECK(postgres_step_code("23505", true) == StepCode::kConstraint);  // a repeat
  CHECK(postgres_step_code("23514", true) == StepCode::kConstraint);  // a CHECK
  CHECK(postgres_step_code("40001", true) == StepCode::kSerialization);
  CHECK(postgres_step_code("40P01", true) == StepCode::kDeadlock);
  CHECK(postgres_step_code("55P03", true) == StepCode::kLockTimeout);
  CHECK(postgres_step_code("57P01", true) == StepCode::kConnectionLost);
  CHECK(postgres_step_code("", false) == StepCode::kConnectionLost);
  CHECK(postgres_step_code("42P01", true) == StepCode::kError);
}

TEST_CASE("libpq's own words for a socket that is gone are a lost link") {
  CHECK(client_says_link_gone("server closed the connection unexpectedly"));
  CHECK(client_says_link_gone("could not send data to server: Broken pipe"));
  CHECK(client_says_link_gone("no connection to the server"));
  CHECK_FALSE(client_says_link_gone("out of memory"));
  CHECK_FALSE(client_says_link_gone("relation \"account\" does not exist"));
}

TEST_CASE("MariaDB's error numbers map to what a strategy does next") {
  CHECK(mariadb_step_code(1062) == StepCode::kConstraint);
  CHECK(mariadb_step_code(4025) == StepCode::kConstraint);
  CHECK(mariadb_step_code(1020) == StepCode::kSerialization);
  CHECK(mariadb_step_code(1213) == StepCode::kDeadlock);  // SQLSTATE 40001 too: by number
  CHECK(mariadb_step_code(1205) == StepCode::kLockTimeout);
  CHECK(mariadb_step_code(2013) == StepCode::kConnectionLost);
  CHECK(mariadb_step_code(2006) == StepCode::kConnectionLost);
  CHECK(mariadb_step_code(1146) == StepCode::kError);
}

TEST_CASE("InnoDB's status names the thread whose transaction waits for a lock") {
  // Cut from SHOW ENGINE INNODB STATUS on MariaDB 10.11: thread 12's INSERT waits, 13 holds.
  const std::string status =
      "LIST OF TRANSACTIONS FOR EACH SESSION:\n"
      "---TRANSACTION 3052, ACTIVE 49 sec\n"
      "3 lock struct(s), heap size 1128, 61 row lock(s)\n"
      "MariaDB thread id 13, OS thread handle 139895073220288, query id 467286 localhost\n"
      "---TRANSACTION 3053, ACTIVE 49 sec inserting\n"
      "mysql tables in use 1, locked 1\n"
      "LOCK WAIT 5 lock struct(s), heap size 1128, 3 row lock(s), undo log entries 1\n"
      "MariaDB thread id 12, OS thread handle 139895073527488, query id 467590 localhost\n"
      "------- TRX HAS BEEN WAITING 48743121 us FOR THIS LOCK TO BE GRANTED:\n"
      "---TRANSACTION (0x7f3bde075b80), not started\n"
      "0 lock struct(s), heap size 1128, 0 row lock(s)\n";
  CHECK(innodb_status_shows_lock_wait(status, 12));
  CHECK_FALSE(innodb_status_shows_lock_wait(status, 13));
  CHECK_FALSE(innodb_status_shows_lock_wait(status, 1));  // not thread 12's or 13's prefix
  CHECK_FALSE(innodb_status_shows_lock_wait("", 12));
}
