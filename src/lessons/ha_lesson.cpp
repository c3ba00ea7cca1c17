// The lesson on an HA manager's failover (idemlab lesson an-ha-managers-failover): what
// Patroni's settings promise a payment, shown in the simulator, whose standby takes them as
// topology keys (sync=, max-lag-ms=). The same cases run on three PostgreSQL nodes behind
// Patroni and etcd in tests/e2e/patroni, and agree with the model row by row (the parity
// table's patroni rows).
#include "lessons/steps.h"

namespace idemlab {

namespace {

// One select-insert payment whose commit the ledger's primary dies right after, on a standby
// fed as `standby` says.
std::string one_payment(std::string_view standby) {
  return "simulate --strategy select-insert --requests 1 --topology ledger=standby:" +
         std::string(standby) + " --fault failover:of=ledger,nth=1";
}

}  // namespace

Lesson ha_manager_failover() {
  return {0,
          "an-ha-managers-failover",
          "An HA manager's failover, and what it promised",
          "000 and 004 §3 (ask, then retry), on a ledger behind Patroni",
          "An HA manager (Patroni, pg_auto_failover) decides that the primary has failed and "
          "which standby takes its place; its settings decide what the promotion may lose. The "
          "steps run in the simulator, whose standby takes Patroni's settings as keys: sync=off "
          "(asynchronous, the default), sync=on and sync=strict (synchronous_mode, "
          "synchronous_mode_strict), max-lag-ms (maximum_lag_on_failover). tests/e2e/patroni "
          "makes the same cases on three PostgreSQL nodes behind Patroni and etcd.",
          {step("Asynchronous: the primary dies right after select-insert's commit, before the "
                "standby has it, and the standby is promoted. The client was told applied; the "
                "journal has nothing (never_moved).",
                one_payment("sync=off,lag-ms=1000")),
           step("synchronous_mode: a COMMIT is answered once the standby has it. The same failover "
                "loses nothing answered.",
                one_payment("sync=on")),
           step("maximum_lag_on_failover: the standby is 1 s behind and 500 ms is allowed, so "
                "nobody is promoted (promotions_refused). Nothing is lost; on the servers the "
                "ledger takes no writes until the old primary is back.",
                one_payment("lag-ms=1000,max-lag-ms=500")),
           step("Every strategy, the primary failing after 10% of the commits, asynchronously: "
                "each told some clients a success the failover took back (never_moved), and the "
                "token, kept in a store that stayed up, outlived its transfer (stuck)...",
                "compare --scenario ledger-failover"),
           step("...and in synchronous_mode_strict every guarded strategy moves each payment once.",
                "compare --scenario ledger-failover --topology ledger=standby:sync=strict "
                "--topology guards=replica")},
          "An HA manager's settings promise what a failover may lose, not what a client was told. "
          "Asynchronous, an answered payment can vanish, and only the client's retry repairs it, "
          "because its guard was lost with the money; a guard kept elsewhere outlives it and "
          "refuses the retry. synchronous_mode_strict loses nothing answered, and waits when no "
          "standby answers; maximum_lag_on_failover trades the loss for an outage, and misses the "
          "last loop_wait seconds (Patroni compares the position the leader last published). A "
          "primary paused and resumed answers until Patroni demotes it, and those answers are "
          "lost whatever the settings (tests/e2e/patroni)."};
}

}  // namespace idemlab
