// Tests for ledger/request.
#include <doctest/doctest.h>

#include "db/replication.h"
#include "ledger/request.h"

using namespace idemlab;

TEST_CASE("biz_seq must be printable, non-empty and at most 64 characters") {
  CHECK(validate_biz_seq("order-2026-11-21/0001").is_ok());
  CHECK(validate_biz_seq(std::string(64, 'x')).is_ok());
  CHECK_FALSE(validate_biz_seq("").is_ok());
  CHECK_FALSE(validate_biz_seq(std::string(65, 'x')).is_ok());
  CHECK_FALSE(validate_biz_seq("has space").is_ok());
  CHECK_FALSE(validate_biz_seq("tab\there").is_ok());
  CHECK_FALSE(validate_biz_seq("bell\x07").is_ok());
  CHECK_FALSE(validate_biz_seq("caf\xc3\xa9").is_ok());
}

TEST_CASE("account names use letters, digits, underscore and dash") {
  CHECK(validate_account_name("alice_2-b").is_ok());
  CHECK_FALSE(validate_account_name("").is_ok());
  CHECK_FALSE(validate_account_name("a b").is_ok());
  CHECK_FALSE(validate_account_name(std::string(33, 'a')).is_ok());
}

TEST_CASE("payload text names payer, payee and amount") {
  CHECK(payload_text({"r1", "alice", "bob", 150, ""}) == "alice>bob:150");
}

TEST_CASE(
    "a commit position is at most 8 hex digits, a slash, at most 8, as PostgreSQL writes it") {
  for (const char* good : {"0/3000060", "16/B374D848", "FFFFFFFF/FFFFFFFF"})
    CHECK(is_commit_position(good));
  for (const char* bad : {"", "12", "/3000060", "0/", "0/30x0", "0/3000060 ", "-1/2", "1/2/3",
                          "123456789/123456789", "0/FFFFFFFFF", "FFFFFFFFF/0"})
    CHECK_MESSAGE(!is_commit_position(bad), bad);
}
