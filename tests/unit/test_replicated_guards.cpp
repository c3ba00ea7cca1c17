// Tests for sim/shared/replicated_guards: the simulator's guard store with a replica, and what
// a failover keeps and loses.
#include <doctest/doctest.h>

#include "sim/shared/replicated_guards.h"

using namespace idemlab;

namespace {

StepResult insert_token(GuardStore& store, int64_t now) {
  return store.run(Stmt::kInsertToken, {{":token", "t1"}, {":now", now}, {":expires", 60000}});
}
StepResult consume_token(GuardStore& store, int64_t now) {
  return store.run(Stmt::kConsumeToken,
                   {{":token", "t1"}, {":now", now}, {":biz_seq", "r1"}, {":source", "api"}});
}
// Whether the token is there, and whether it is marked used.
std::pair<bool, bool> token_state(GuardStore& store) {
  StepResult found = store.run(Stmt::kSelectToken, {{":token", "t1"}, {":now", int64_t{0}}});
  REQUIRE(found.ok());
  if (!found.row) return {false, false};
  return {true, !is_null((*found.row)[1])};
}

}  // namespace

TEST_CASE("a failover keeps the writes its replica had received and loses the rest") {
  ReplicatedGuards store;
  REQUIRE(ReplicatedGuards::create(15, &store).is_ok());
  REQUIRE(insert_token(store, 10).ok());
  REQUIRE(consume_token(store, 20).changes == 1);
  CHECK(token_state(store) == std::pair{true, true});

  SUBCASE("the consume made at the failover's moment is lost; the token is usable again") {
    Result<int64_t> lost = store.failover(20, 0);
    REQUIRE(lost.is_ok());
    CHECK(lost.value() == 1);
    CHECK(token_state(store) == std::pair{true, false});
    CHECK(consume_token(store, 21).changes == 1);  // a retry consumes it a second time
  }
  SUBCASE("a replica 15 ms behind never saw the token") {
    Result<int64_t> lost = store.failover(20, 15);
    REQUIRE(lost.is_ok());
    CHECK(lost.value() == 2);
    CHECK(token_state(store) == std::pair{false, false});
  }
  SUBCASE("a replica that had every write loses nothing, and a second failover keeps it") {
    CHECK(store.failover(30, 5).value() == 0);
    CHECK(token_state(store) == std::pair{true, true});
    CHECK(store.failover(31, 0).value() == 0);
    CHECK(token_state(store) == std::pair{true, true});
  }
}

TEST_CASE("reads and writes that change nothing are not logged") {
  ReplicatedGuards store;
  REQUIRE(ReplicatedGuards::create(0, &store).is_ok());
  REQUIRE(insert_token(store, 10).ok());
  CHECK(consume_token(store, 11).changes == 1);
  CHECK(consume_token(store, 12).changes == 0);  // used already
  (void)token_state(store);
  CHECK(store.failover(12, 0).value() == 0);  // nothing at 12 was a write
  CHECK(token_state(store) == std::pair{true, true});
}

TEST_CASE("each lock granted carries a fence that grows, a failover included") {
  ReplicatedGuards store;
  REQUIRE(ReplicatedGuards::create(0, &store).is_ok());
  const auto acquire = [&](std::string_view owner, int64_t now) {
    return store.run(Stmt::kAcquireLock, {{":name", "transfer:r1"},
                                          {":until", now + 100},
                                          {":now", now},
                                          {":owner", std::string(owner)}});
  };
  const StepResult first = acquire("a", 10);
  REQUIRE((first.changes == 1 && first.row));
  CHECK(as_int((*first.row)[0]) == 1);
  CHECK(acquire("b", 50).changes == 0);         // held: no grant, no fence
  const StepResult second = acquire("b", 200);  // the first lease ran out
  REQUIRE((second.changes == 1 && second.row));
  CHECK(as_int((*second.row)[0]) == 2);
  REQUIRE(store.failover(200, 0).is_ok());  // the grant is lost; its number is not reused
  const StepResult third = acquire("c", 300);
  REQUIRE(third.row);
  CHECK(as_int((*third.row)[0]) == 3);
}
