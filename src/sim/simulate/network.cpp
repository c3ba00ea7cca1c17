// Where faults land, and the latency of every copy of an attempt and of every answer.
#include "sim/simulate/network.h"

#include <fmt/format.h>

namespace idemlab::sim {

Network::Copies Network::draw_copies(uint32_t request, int attempt, Random& faults) const {
  Copies copies;
  for (const FaultSpec& fault : settings_.config.faults) {
    if (attempt != 1) break;
    if (fault.kind == FaultKind::kDoubleSubmit &&
        settings_.fault_hits(fault, request, attempt, faults))
      copies.submitted = static_cast<int>(fault.count);
    if (fault.kind == FaultKind::kRedeliver &&
        settings_.fault_hits(fault, request, attempt, faults))
      copies.redelivered = static_cast<int>(fault.count);
    if (fault.kind == FaultKind::kRepublish &&
        settings_.fault_hits(fault, request, attempt, faults)) {
      copies.republished = static_cast<int>(fault.count);
      copies.republish_ms = fault.ms;
    }
  }
  return copies;
}

// A republished copy `after_ms` behind the first publish, on a queue that dedups within its
// window: the broker answers it as a duplicate and stores nothing.
bool Network::broker_drops(uint32_t request, int attempt, int copy, int64_t after_ms) {
  const SimTopology& topology = settings_.config.topology;
  if (!topology.queue_dedups || after_ms >= topology.queue_window_ms) return false;
  ++dropped_by_broker_;
  trace_.note(request, attempt, copy, "queue", "republished copy dropped", "",
              fmt::format("{} ms after the first publish, inside the {} ms window", after_ms,
                          topology.queue_window_ms),
              "republish");
  return true;
}

void Network::dispatch(uint32_t request, int attempt, uint8_t key, Copies copies, Random& faults,
                       Random& network) {
  const int queued = copies.submitted + copies.redelivered;
  for (int copy = 0; copy < queued + copies.republished; ++copy) {
    const int64_t republished_after =
        copy >= queued ? copies.republish_ms * (copy - queued + 1) : 0;
    if (republished_after > 0 && broker_drops(request, attempt, copy, republished_after)) continue;
    const uint32_t index =
        new_delivery(request, static_cast<uint8_t>(attempt), static_cast<uint8_t>(copy), key);
    const bool lost = place_faults(deliveries_[index], request, attempt, faults);
    const bool redelivery = copy >= copies.submitted;
    int64_t latency = network.between(1, 4) + republished_after;
    if (redelivery && copy < queued) latency += kRedeliveryGapMs * (copy - copies.submitted + 1);
    if (lost && !redelivery) {
      trace_.note(request, attempt, copy, "network", "request lost", "", "", "request-lost");
      deliveries_.free(index);
      continue;
    }
    events_.schedule_in(latency, EventKind::kArrive, index);
  }
}

// Draws each fault for one delivery, in the config's order (the order is part of the seed's
// schedule). Returns whether the request is lost on its way.
bool Network::place_faults(Delivery& delivery, uint32_t request, int attempt,
                           Random& faults) const {
  bool lost = false;
  for (const FaultSpec& fault : settings_.config.faults) {
    switch (fault.kind) {
      case FaultKind::kRequestLost:
        lost |= settings_.fault_hits(fault, request, attempt, faults);
        break;
      case FaultKind::kResponseLost:
        delivery.response_lost |= settings_.fault_hits(fault, request, attempt, faults);
        break;
      case FaultKind::kSlow:
        if (settings_.fault_hits(fault, request, attempt, faults)) delivery.sites.arm(fault);
        break;
      case FaultKind::kCrash:
        if (settings_.fault_hits(fault, request, attempt, faults)) {
          // A crash naming neither step nor phase lands after a drawn number of statements.
          const bool drawn = fault.step.empty() && fault.phase == Phase::kNone;
          delivery.sites.arm(fault, drawn ? crash_point(faults) : 0);
        }
        break;
      case FaultKind::kFailover:  // at-ms= is not an attempt's: the Simulation schedules it
        if (fault.at_ms < 0 && settings_.fault_hits(fault, request, attempt, faults))
          delivery.sites.arm(fault);
        break;
      case FaultKind::kBusy:
        if (settings_.fault_hits(fault, request, attempt, faults)) delivery.busy_ms = fault.ms;
        break;
      case FaultKind::kReplayPause:
        if (settings_.fault_hits(fault, request, attempt, faults))
          delivery.replay_pause_ms = fault.ms;
        break;
      default:
        break;
    }
  }
  return lost;
}

// crash without after=: a statement number drawn from the seed, 1 to the number of steps the
// strategy can reach; an attempt that ends sooner crashes after its last statement, so every
// crash drawn happens at a step the attempt really reached.
uint16_t Network::crash_point(Random& random) const {
  const auto span = reachable_steps(settings_.strategy.info(), settings_.pitfall).size();
  return static_cast<uint16_t>(random.between(1, static_cast<int64_t>(span)));
}

uint32_t Network::new_delivery(uint32_t request, uint8_t attempt, uint8_t copy, uint8_t key) {
  const uint32_t index = deliveries_.add(request);
  Delivery& delivery = deliveries_[index];
  delivery.sites = FaultSites(slow_default_step(settings_.strategy.info(), settings_.pitfall),
                              kSimulatedSlowPhase);
  delivery.attempt = attempt;
  delivery.copy = copy;
  delivery.key = key;
  delivery.node = static_cast<uint8_t>(settings_.node_for(request, attempt, copy));
  return index;
}

void Network::send_answer(uint32_t index) {
  Delivery& delivery = deliveries_[index];
  const uint32_t request = delivery.request;
  if (delivery.response_lost) {
    trace_.note(request, delivery.attempt, delivery.copy, "network", "response lost", "", "",
                "response-lost");
    deliveries_.free(index);
    return;
  }
  Random network(mix(settings_.config.seed, request, delivery.attempt, Purpose::kNetwork));
  network.next();
  events_.schedule_in(network.between(1, 4) + std::exchange(delivery.after_commit_pause_ms, 0),
                      EventKind::kAnswer, index);
}

}  // namespace idemlab::sim
