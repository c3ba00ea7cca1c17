// A simulated run's topology: its words, what a run's faults add to it, and what it refuses.
#include <doctest/doctest.h>

#include "sim/shared/sim_topology.h"

using namespace idemlab;

namespace {

std::vector<FaultSpec> faults(std::initializer_list<const char*> texts) {
  std::vector<FaultSpec> out;
  for (const char* text : texts) {
    FaultSpec fault;
    REQUIRE(parse_fault(text, &fault).is_ok());
    out.push_back(fault);
  }
  return out;
}

}  // namespace

TEST_CASE("each part of a topology is read with its keys") {
  SimTopology topology;
  REQUIRE(parse_topologies({"ledger=galera:nodes=4,apply-ms=50,sync-wait=1,retry-autocommit=0",
                            "guards=replica:lag-ms=20"},
                           &topology)
              .is_ok());
  CHECK(topology.galera());
  CHECK((topology.nodes == 4 && topology.apply_ms == 50 && topology.causal_reads));
  CHECK_FALSE(topology.retry_autocommit);
  CHECK((topology.guards_replica && topology.guards_lag_ms == 20 && topology.guards_lag_given));
  CHECK(topology.texts.size() == 2);
  REQUIRE(parse_topologies({"ledger=standby:reads=standby"}, &topology).is_ok());
  CHECK((topology.standby() && topology.reads_on_standby && topology.ledger_lag_ms == 1000));
  CHECK_FALSE(topology.ledger_lag_given);
  CHECK_FALSE(topology.guards_replica);  // parse_topologies starts afresh
  REQUIRE(parse_topologies({"ledger=server", "guards=server"}, &topology).is_ok());
  CHECK((topology.ledger == LedgerShape::kServer && !topology.guards_replica));
}

TEST_CASE("an HA manager's settings are the standby's keys: sync and the lag it may promote") {
  SimTopology topology;
  REQUIRE(parse_topologies({"ledger=standby:sync=strict,max-lag-ms=250", "guards=replica:sync=on"},
                           &topology)
              .is_ok());
  CHECK(topology.ledger_sync == StandbySync::kStrict);
  CHECK(topology.max_lag_ms == 250);
  CHECK(topology.guards_sync);
  std::vector<FaultSpec> failover = faults({"failover:of=both"});
  REQUIRE(resolve_topology(&topology, &failover, false).is_ok());
  CHECK(topology_words(topology) ==
        "the ledger's standby synchronous, strictly (each answered commit on it, never alone), "
        "promoted only within 250 ms of its primary; tokens and locks in a store with a "
        "synchronous replica");
  REQUIRE(parse_topologies({"guards=lease"}, &topology).is_ok());
  CHECK((topology.guards_lease && topology.guards_replica && topology.guards_sync));
  CHECK(topology_words(topology) ==
        "tokens and locks in a consensus store, each lock under a lease");
  REQUIRE(parse_topologies({"ledger=standby:sync=on"}, &topology).is_ok());
  CHECK(topology.ledger_sync == StandbySync::kOn);
  CHECK(topology.max_lag_ms == -1);
  std::vector<FaultSpec> none;
  CHECK(resolve_topology(&topology, &none, false).code() == StatusCode::kUsage);
}

TEST_CASE("a topology said twice, or with a word it does not take, is refused") {
  SimTopology topology;
  for (const auto& texts :
       std::vector<std::vector<std::string>>{{"ledger=galera:nodes=3,nodes=4"},
                                             {"ledger=galera", "ledger=standby:reads=standby"},
                                             {"ledger=galera:nodes=1"},
                                             {"ledger=galera:nodes=10"},
                                             {"ledger=galera:lag-ms=5"},
                                             {"ledger=standby:reads=replica"},
                                             {"ledger=standby:apply-ms=5"},
                                             {"ledger=server:lag-ms=5"},
                                             {"ledger=cluster"},
                                             {"guards=replica:nodes=2"},
                                             {"guards"},
                                             {"queue=replica"},
                                             {"ledger=standby:lag-ms"},
                                             {"ledger=standby:sync=yes"},
                                             {"ledger=standby:max-lag-ms=-1"},
                                             {"guards=replica:sync=strict"},
                                             {"guards=lease:lag-ms=5"}}) {
    CAPTURE(texts.front());
    CHECK(parse_topologies(texts, &topology).code() == StatusCode::kUsage);
  }
}

TEST_CASE("a failover brings the replica it promotes, as far behind as it says") {
  SimTopology topology;
  std::vector<FaultSpec> run = faults({"failover:of=ledger,lag-ms=40", "failover:lag-ms=7"});
  REQUIRE(resolve_topology(&topology, &run, false).is_ok());
  CHECK((topology.standby() && topology.ledger_lag_ms == 40 && !topology.reads_on_standby));
  CHECK((topology.guards_replica && topology.guards_lag_ms == 7));
  const SimTopology once = topology;
  REQUIRE(resolve_topology(&topology, &run, false).is_ok());  // twice: the same
  CHECK(topology.ledger_lag_ms == once.ledger_lag_ms);
  CHECK(topology.guards_lag_ms == once.guards_lag_ms);
}

TEST_CASE("a failover that names no lag takes its replica's from the topology") {
  SimTopology topology;
  REQUIRE(
      parse_topologies({"ledger=standby:lag-ms=30", "guards=replica:lag-ms=9"}, &topology).is_ok());
  std::vector<FaultSpec> run = faults({"failover:of=ledger", "failover", "failover:lag-ms=50"});
  REQUIRE(resolve_topology(&topology, &run, false).is_ok());
  CHECK(run[0].lag_ms == 30);
  CHECK(run[1].lag_ms == 9);
  CHECK(run[2].lag_ms == 50);
  CHECK(topology.guards_lag_ms == 50);  // the store keeps the deepest lag a failover asks for
}

TEST_CASE("what a topology cannot carry, or changes nothing, is refused") {
  SimTopology galera;
  REQUIRE(parse_topologies({"ledger=galera"}, &galera).is_ok());
  std::vector<FaultSpec> ledger_failover = faults({"failover:of=ledger"});
  CHECK(resolve_topology(&galera, &ledger_failover, false).code() == StatusCode::kUsage);

  SimTopology idle;
  REQUIRE(parse_topologies({"ledger=standby:lag-ms=20"}, &idle).is_ok());
  std::vector<FaultSpec> none;
  const Status nothing = resolve_topology(&idle, &none, false);
  CHECK(nothing.code() == StatusCode::kUsage);
  CHECK(nothing.message().find("changes nothing") != std::string::npos);

  SimTopology plain;
  CHECK(resolve_topology(&plain, &none, true).code() == StatusCode::kUsage);  // read-your-writes
  SimTopology reads;
  REQUIRE(parse_topologies({"ledger=standby:reads=standby"}, &reads).is_ok());
  CHECK(resolve_topology(&reads, &none, true).is_ok());
}

TEST_CASE("a queue's duplicate window: parsed, and refused where no copy is republished") {
  SimTopology window;
  REQUIRE(parse_topologies({"queue=jetstream:window-ms=250"}, &window).is_ok());
  CHECK((window.queue_dedups && window.queue_window_ms == 250));
  CHECK(topology_words(window) == "a queue that drops a republished copy within 250 ms");
  SimTopology fallback;
  REQUIRE(parse_topologies({"queue=jetstream"}, &fallback).is_ok());
  CHECK(fallback.queue_window_ms == 120000);  // JetStream's two minutes
  SimTopology plain;
  REQUIRE(parse_topologies({"queue=plain"}, &plain).is_ok());
  CHECK(!plain.queue_dedups);
  SimTopology bad;
  CHECK(parse_topologies({"queue=kafka"}, &bad).code() == StatusCode::kUsage);
  CHECK(parse_topologies({"queue=jetstream:ms=5"}, &bad).code() == StatusCode::kUsage);
  CHECK(parse_topologies({"queue=plain:window-ms=5"}, &bad).code() == StatusCode::kUsage);

  std::vector<FaultSpec> redelivered = faults({"redeliver"});
  const Status through = resolve_topology(&window, &redelivered, false);
  CHECK(through.code() == StatusCode::kUsage);  // a redelivery is no publish
  CHECK(through.message().find("changes nothing") != std::string::npos);
  std::vector<FaultSpec> republished = faults({"republish:k=2,ms=100"});
  CHECK(resolve_topology(&window, &republished, false).is_ok());
  CHECK((republished[0].count == 2 && republished[0].ms == 100));
  std::vector<FaultSpec> prompt = faults({"republish"});
  CHECK(prompt[0].ms == kDefaultRepublishMs);
}
