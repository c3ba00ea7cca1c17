// Replication faults at the endpoint: failovers (the guard store's, the ledger's, or both at the
// same moment) and a pause of the standby's replay.
#include "core/check.h"
#include "sim/simulate/endpoint.h"

namespace idemlab::sim {

namespace {

std::string count_lost(int64_t lost, std::string_view what) {
  if (lost == 0) return fmt::format("with every {}", what);
  if (lost == 1) return fmt::format("without the last {}", what);
  return fmt::format("without the last {} {}s", lost, what);
}

std::string behind(int64_t lag_ms) {
  return lag_ms < 0 ? std::string("synchronous") : fmt::format("{} ms behind", lag_ms);
}

std::string dying(int64_t cut) {
  if (cut == 0) return "";
  if (cut == 1) return ", and the transaction under way dies";
  return fmt::format(", and the {} transactions under way die", cut);
}

}  // namespace

// A primary dies here; its replica takes over with what it had received. The attempt goes on
// (its connection finds the new primary, as a Sentinel client or a pool naming both servers
// does), unless the ledger's failover cut its transaction.
void Endpoint::fail_over(const Delivery& delivery) {
  std::string what = fail_over_now(fmt::format("after {}", delivery.sites.failover_site()),
                                   delivery.sites.failover_lag_ms(), delivery.sites.failover_of());
  trace_.note(delivery.request, delivery.attempt, delivery.copy, "server", "failover", "",
              std::move(what), "failover");
}

void Endpoint::pause_replay(const Delivery& delivery) {
  LaggingReplica* standby = ledger_.replicas.read_standby();
  IDEMLAB_CHECK(standby, "replay-pause comes with a standby that is read (resolve_topology)");
  standby->pause(events_.now_ms(), delivery.replay_pause_ms);
  trace_.note(delivery.request, delivery.attempt, delivery.copy, "server", "the standby", "",
              fmt::format("stops replaying for {} ms", delivery.replay_pause_ms), "replay-pause");
}

void Endpoint::fail_over_at_time(const FaultSpec& fault) {
  std::string what = fail_over_now(fmt::format("at {} ms", fault.at_ms), fault.lag_ms, fault.of);
  trace_.note_run("server", "failover", std::move(what), "failover");
}

// A synchronous replica (the topology's sync=) has every write its primary acknowledged,
// whatever the fault's lag.
std::string Endpoint::fail_over_now(std::string_view site, int64_t lag_ms, FailoverOf of) {
  const SimTopology& topology = settings_.config.topology;
  const int64_t guards_lag_ms = topology.guards_sync ? -1 : lag_ms;
  lag_ms = topology.ledger_sync != StandbySync::kOff ? -1 : lag_ms;
  if (of == FailoverOf::kGuards) {
    if (!ledger_.replicas.guards())
      return fmt::format("the guard store fails over {}; this strategy keeps nothing there", site);
    return fmt::format("the guard store's primary dies {}; {}", site,
                       fail_over_guards(guards_lag_ms, "its replica"));
  }
  if (of == FailoverOf::kLedger)
    return fmt::format("the ledger's primary dies {}; {}", site,
                       fail_over_ledger(lag_ms, "its standby"));
  std::string guards = ledger_.replicas.guards()
                           ? fail_over_guards(guards_lag_ms, "the guard store's replica") + "; "
                           : std::string();
  return fmt::format("the guard store's and the ledger's primaries die {}; {}{}", site,
                     std::move(guards), fail_over_ledger(lag_ms, "the ledger's standby"));
}

std::string Endpoint::fail_over_guards(int64_t lag_ms, std::string_view replica) {
  const int64_t lost = ledger_.replicas.fail_over_guards(events_.now_ms(), lag_ms);
  ++stats_.failovers;
  stats_.guard_writes_lost += lost;
  return fmt::format("{} ({}) takes over {}", replica, behind(lag_ms), count_lost(lost, "write"));
}

// The standby's data takes the primary's place, under every connection; or, further behind
// than the topology's max-lag-ms, nobody is promoted and the primary comes back as it was.
std::string Endpoint::fail_over_ledger(int64_t lag_ms, std::string_view standby) {
  const int64_t cut = cut_transactions();
  const int64_t max_lag_ms = settings_.config.topology.max_lag_ms;
  if (max_lag_ms >= 0 && lag_ms > max_lag_ms) {  // the HA manager promotes nobody
    ++stats_.promotions_refused;
    stats_.transactions_cut += cut;
    return fmt::format(
        "{} is {} ms behind, past the {} ms a failover may promote: nobody is "
        "promoted, and the old primary comes back with every commit{}",
        standby, lag_ms, max_lag_ms, dying(cut));
  }
  const int64_t lost = ledger_.replicas.fail_over_ledger(ledger_.client, events_.now_ms(), lag_ms);
  ++stats_.ledger_failovers;
  stats_.commits_lost += lost;
  stats_.transactions_cut += cut;
  return fmt::format("{} ({}) takes over {}{}", standby, behind(lag_ms), count_lost(lost, "commit"),
                     dying(cut));
}

// Every transaction under way on the primary dies with it: its attempt finds out at its next
// step and ends with no answer. The busy fault's other writer lets go.
int64_t Endpoint::cut_transactions() {
  int64_t cut = 0;
  network_.for_each_delivery([&](uint32_t, Delivery& delivery) {
    if (!delivery.connection || !delivery.connection->in_transaction()) return;
    delivery.connection->rollback_if_open();
    delivery.doomed = true;
    ++cut;
  });
  if (busy_held_) release_busy_lock();
  return cut;
}

}  // namespace idemlab::sim
