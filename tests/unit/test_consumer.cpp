// Tests for queue/consumer with an in-memory queue in the broker's place: what is acked, what
// goes back to the queue, what is dead-lettered and why, and the ledger each leaves.
#include <doctest/doctest.h>

#include "fake_queue.h"
#include "fault_vfs.h"
#include "queue/consumer.h"
#include "strategy_harness.h"

using namespace idemlab;
using namespace idemlab::test;

namespace {

std::string message(const std::string& biz_seq, const std::string& amount = "1.00",
                    const std::string& from = "alice", const std::string& source = "api") {
  return fmt::format(R"({{"source":"{}","biz_seq":"{}","from":"{}","to":"bob","amount":"{}"}})",
                     source, biz_seq, from, amount);
}

ConsumeSettings settings_for(const char* strategy, int max_deliveries = 3) {
  ConsumeSettings settings;
  settings.policy.transport = Transport::kQueue;
  settings.policy.strategy = find_strategy(strategy);
  settings.policy.owner = "test";
  settings.until_idle_ms = 1;  // the fake queue answers at once: stop when it is empty
  settings.max_deliveries = max_deliveries;
  settings.queue = "q";
  return settings;
}

ConsumeTally consume(FakeQueue& queue, const LedgerFile& ledger, const ConsumeSettings& settings,
                     Status* status = nullptr) {
  DeploymentOptions options;
  options.db = ledger.path();
  Result<Deployment> deployment = Deployment::read(options);
  REQUIRE(deployment.is_ok());
  LinkPool pool(std::move(deployment).value(), 1);
  ConsumeTally tally;
  const Status consumed = consume_transfers(queue, pool, settings, &tally, [](auto&) {});
  if (status)
    *status = consumed;
  else
    REQUIRE_MESSAGE(consumed.is_ok(), consumed.message());
  return tally;
}

}  // namespace

TEST_CASE("a request and its copy: the first applied, the copy replayed, both acked") {
  LedgerFile ledger;
  FakeQueue queue;
  queue.publish(message("r1"), "m1");
  queue.publish(message("r1"), "m2");
  const ConsumeTally tally = consume(queue, ledger, settings_for("dedup-table"));
  CHECK(queue.acked() == 2);
  CHECK(queue.dead().empty());
  CHECK(tally.answers.at("applied (replayed)") == 1);
  CHECK(journal_pairs(ledger, "r1") == 1);
}

TEST_CASE("what the command line refuses is dead-lettered with the same words, nothing moved") {
  LedgerFile ledger;
  FakeQueue queue;
  queue.publish(message("r1", "1.00", "alice", std::string(40, 's')), "m1");
  queue.publish(message("r2", "1.234"), "m2");
  queue.publish("not json", "m3");
  queue.publish(R"({"source":"api","biz_seq":"r4","biz_seq":"r5","from":"alice","to":"bob",)"
                R"("amount":"1"})",
                "m4");
  const ConsumeTally tally = consume(queue, ledger, settings_for("direct-insert"));
  REQUIRE(queue.dead().size() == 4);
  CHECK(queue.dead()[0].second ==
        "refused: invalid source '" + std::string(40, 's') + "': 40 characters long; at most 32");
  CHECK(queue.dead()[1].second == "refused: invalid amount '1.234': at most two fractional digits");
  CHECK(queue.dead()[2].second.starts_with("not a transfer"));
  CHECK(queue.dead()[3].second == "not a transfer (biz_seq is given twice)");
  CHECK(queue.acked() == 4);  // each acked once its dead letter was stored
  CHECK(tally.dead_lettered == 4);
  CHECK(ledger.scalar("SELECT count(*) FROM journal") == 0);
}

TEST_CASE("refusals the ledger cannot record are dead-lettered; a recorded one is acked") {
  LedgerFile ledger;
  FakeQueue queue;
  queue.publish(message("r1", "1.00", "zed"), "m1");  // unknown account
  queue.publish(message("r2", "999999.00"), "m2");    // insufficient funds: recorded
  queue.publish(message("r3"), "m3");                 // applied
  queue.publish(message("r3", "2.00"), "m4");         // the same key, another payload
  consume(queue, ledger, settings_for("select-insert"));
  REQUIRE(queue.dead().size() == 2);
  CHECK(queue.dead()[0].second == "refused: rejected: unknown_account");
  CHECK(queue.dead()[1].second.starts_with("refused: mismatch"));
  CHECK(queue.acked() == 4);
  CHECK(journal_pairs(ledger, "r3") == 1);
}

TEST_CASE("ack on receipt acks before the work") {
  LedgerFile ledger;
  FakeQueue queue;
  queue.publish(message("r1"), "m1");
  ConsumeSettings settings = settings_for("dedup-table");
  settings.ack_on_receipt = true;
  consume(queue, ledger, settings);
  CHECK(queue.acked() == 1);
  CHECK(ledger.scalar("SELECT count(*) FROM delivery WHERE ack = 'on-receipt'") == 1);
}

TEST_CASE("a key held by another attempt goes back to the queue, then is dead-lettered") {
  LedgerFile ledger;
  ledger.scalar(
      "INSERT INTO lock VALUES ('transfer:api:r1', 9000000000000, 1, 'other') "
      "RETURNING 0");
  FakeQueue queue;
  queue.publish(message("r1"), "m1");
  const ConsumeTally tally = consume(queue, ledger, settings_for("lock-table", 3));
  CHECK(queue.requeued() == 2);
  REQUIRE(queue.dead().size() == 1);
  CHECK(queue.dead()[0].second.starts_with(
      "not settled after 3 deliveries; the last answer: in_progress"));
  CHECK(tally.requeued == 2);
  CHECK(queue.unacked() == 0);
}

TEST_CASE("a failing disk before the commit: back to the queue, applied once it heals") {
  LedgerFile ledger;
  FaultVfs vfs;
  FakeQueue queue;
  queue.publish(message("r1"), "m1");
  queue.on_requeue = [&](int requeued) {
    if (requeued == 2) vfs.disarm();  // the disk heals after two failed deliveries
  };
  vfs.arm(1, FaultVfs::Failure::kIoError, true);
  const ConsumeTally tally = consume(queue, ledger, settings_for("dedup-table", 5));
  CHECK(queue.requeued() == 2);
  CHECK(queue.dead().empty());
  CHECK(queue.acked() == 1);
  CHECK(tally.answers.count("applied") == 1);
  CHECK(journal_pairs(ledger, "r1") == 1);
}

TEST_CASE("a request that fails on every delivery ends dead-lettered after the bound") {
  LedgerFile ledger;
  FaultVfs vfs;
  FakeQueue queue;
  queue.publish(message("r1"), "m1");
  vfs.arm(1, FaultVfs::Failure::kIoError, true);
  consume(queue, ledger, settings_for("dedup-table", 4));
  vfs.disarm();
  CHECK(queue.requeued() == 3);
  REQUIRE(queue.dead().size() == 1);
  CHECK(queue.dead()[0].second.starts_with("not settled after 4 deliveries"));
  CHECK(queue.ready() + queue.unacked() == 0);
  CHECK(journal_pairs(ledger, "r1") == 0);
}

TEST_CASE("a message another consumer had counts as delivered once already") {
  LedgerFile ledger;
  ledger.scalar(
      "INSERT INTO lock VALUES ('transfer:api:r1', 9000000000000, 1, 'other') "
      "RETURNING 0");
  FakeQueue queue;
  queue.publish(message("r1"), "m1");
  Result<std::optional<Delivery>> first = queue.next(0);  // a consumer took it, and died
  REQUIRE(queue.requeue((*first)->handle).is_ok());
  consume(queue, ledger, settings_for("lock-table", 2));
  CHECK(queue.requeued() == 1);  // the dead consumer's only: the second delivery is the last
  CHECK(queue.dead().size() == 1);
}
