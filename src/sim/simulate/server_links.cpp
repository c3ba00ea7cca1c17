// ServerFlights when the servers move under a run: a lost link costs its attempt, and the run
// connects again through the topology (server_flights.h).
#include <fmt/format.h>

#include "sim/simulate/server_flights.h"

namespace idemlab::sim {

// The first loss on a connection opened since the run last connected means the servers moved:
// the run connects again. A loss on an older one is one more attempt the same move cut.
void ServerFlights::lost(uint32_t index, std::string_view why) {
  Delivery& delivery = run_.network.delivery(index);
  forget_flight(index);
  transaction_may_end(delivery.session);
  const bool news = run_.ledger.epoch_of(delivery.connection) == run_.ledger.epoch();
  const std::string node = delivery.connection->node();
  run_.endpoint.lose_link(index, why);
  if (news) relink(node);
}

// Every connection to the server that went away is done for (on a cluster, those to the node
// `node`; elsewhere all): an attempt with a statement in flight dies now (a stopped server
// keeps its sockets open and never answers), one between steps at its next step, as a
// transaction under a simulated failover does; the idle ones close. The client's and the busy
// writer's connections open again through the topology, which waits while it settles. What
// the server said of lock waits named sessions that are gone.
void ServerFlights::relink(const std::string& node) {
  const bool cluster = spreads_connections(scratch_.locator().topology);
  const auto gone = [&](const Connection& connection) {
    return connection.is_open() && (!cluster || connection.node() == node);
  };
  run_.network.for_each_delivery([&](uint32_t index, Delivery& delivery) {
    if (!delivery.connection || !gone(*delivery.connection)) return;
    if (delivery.in_flight) {
      forget_flight(index);
      run_.endpoint.lose_link(index, "its server went away");
      return;
    }
    ++run_.stats.links_lost;
    *delivery.connection = Connection();
    delivery.doomed = true;
  });
  run_.ledger.next_epoch(gone);
  const ConnectionOptions options = scratch_server_options(run_.settings.options.isolation);
  run_.endpoint.busy_lost();
  run_.ledger.busy = value_or_throw(scratch_.reconnect(options));
  run_.ledger.client = value_or_throw(scratch_.reconnect(options));
  holders_.clear();
  ended_.clear();
  ++run_.stats.relinks;
  run_.trace.note_run("server", "connected again",
                      fmt::format("through the topology, after a lost link (a failover?) on {}",
                                  node.empty() ? scratch_.locator().shown : node),
                      "link lost");
}

void ServerFlights::ask(const std::function<Status(NonBlocking&)>& question) {
  Status status = question(control());
  if (!is_link_loss(status)) return throw_if_error(status);
  relink(run_.ledger.client.node());
  throw_if_error(question(control()));
}

}  // namespace idemlab::sim
