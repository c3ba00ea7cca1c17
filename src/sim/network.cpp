// The network between clients and the server: where faults land. Each copy of an attempt gets
// its faults drawn from the seed, in the config's order, so every strategy meets the same ones.
#include "sim/simulation.h"

namespace idemlab::sim {

// How many copies of an attempt leave: a double submit sends k at once, a queue redelivers k
// more later. Only first attempts are copied.
Simulation::Copies Simulation::draw_copies(uint32_t request, int attempt, Random& faults) const {
  Copies copies;
  for (const FaultSpec& fault : config_.faults) {
    if (attempt != 1) break;
    if (fault.kind == FaultKind::kDoubleSubmit && fault_hits(fault, request, attempt, faults))
      copies.submitted = static_cast<int>(fault.count);
    if (fault.kind == FaultKind::kRedeliver && fault_hits(fault, request, attempt, faults))
      copies.redelivered = static_cast<int>(fault.count);
  }
  return copies;
}

// Sends every copy of an attempt over the network, with the faults drawn for it.
void Simulation::dispatch(uint32_t request, int attempt, uint8_t key, Copies copies, Random& faults,
                          Random& network) {
  for (int copy = 0; copy < copies.submitted + copies.redelivered; ++copy) {
    const uint32_t index =
        new_delivery(request, static_cast<uint8_t>(attempt), static_cast<uint8_t>(copy), key);
    const bool lost = place_faults(deliveries_[index], request, attempt, faults);
    const bool redelivery = copy >= copies.submitted;
    int64_t latency = network.between(1, 4);
    if (redelivery) latency += kRedeliveryGapMs * (copy - copies.submitted + 1);
    if (lost && !redelivery) {
      note(request, attempt, copy, "network", "request lost", "", "", "request-lost");
      deliveries_[index].live = false;
      free_deliveries_.push_back(index);
      continue;
    }
    schedule_in(latency, Kind::kArrive, index);
  }
}

// Draws each fault for one delivery, in the config's order (the order is part of the seed's
// schedule). Returns whether the request is lost on its way.
bool Simulation::place_faults(Delivery& delivery, uint32_t request, int attempt, Random& faults) {
  bool lost = false;
  for (const FaultSpec& fault : config_.faults) {
    switch (fault.kind) {
      case FaultKind::kRequestLost:
        lost |= fault_hits(fault, request, attempt, faults);
        break;
      case FaultKind::kResponseLost:
        delivery.response_lost |= fault_hits(fault, request, attempt, faults);
        break;
      case FaultKind::kSlow:
        if (fault_hits(fault, request, attempt, faults)) delivery.sites.arm(fault);
        break;
      case FaultKind::kCrash:
        if (fault_hits(fault, request, attempt, faults)) {
          // A crash naming neither step nor phase lands after a drawn number of statements.
          const bool drawn = fault.step.empty() && fault.phase == Phase::kNone;
          delivery.sites.arm(fault, drawn ? crash_point(faults) : 0);
        }
        break;
      case FaultKind::kBusy:
        if (fault_hits(fault, request, attempt, faults)) delivery.busy_ms = fault.ms;
        break;
      default:
        break;
    }
  }
  return lost;
}

uint32_t Simulation::new_delivery(uint32_t request, uint8_t attempt, uint8_t copy, uint8_t key) {
  uint32_t index;
  if (free_deliveries_.empty()) {
    index = static_cast<uint32_t>(deliveries_.size());
    deliveries_.emplace_back();
  } else {
    index = free_deliveries_.back();
    free_deliveries_.pop_back();
  }
  deliveries_[index] = Delivery{};
  Delivery& delivery = deliveries_[index];
  delivery.sites = FaultSites(slow_default_step(strategy_.info(), pitfall_), kSimulatedSlowPhase);
  delivery.live = true;
  delivery.request = request;
  delivery.attempt = attempt;
  delivery.copy = copy;
  delivery.key = key;
  return index;
}

}  // namespace idemlab::sim
