// The network between clients and the server: where faults land, and what carries every copy
// of an attempt (a Delivery, owned here) until its answer is back or lost. Each copy gets its
// faults drawn from the seed, in the config's order, so every strategy meets the same ones;
// each crosses the network in 1 to 4 ms, a redelivery later, and a lost one never arrives.
// Internal to src/sim/simulate/.
#pragma once

#include "sim/simulate/deliveries.h"
#include "sim/simulate/events.h"
#include "sim/simulate/run_settings.h"
#include "sim/simulate/run_trace.h"

namespace idemlab::sim {

class Network {
 public:
  Network(const RunSettings& settings, EventQueue& events, RunTrace& trace)
      : settings_(settings), events_(events), trace_(trace) {}

  // How many copies of an attempt leave: a double submit sends k at once, a queue redelivers k
  // more later. Only first attempts are copied.
  struct Copies {
    int submitted = 1;    // identical submissions at once (double-submit)
    int redelivered = 0;  // later copies from a queue (redeliver)
  };
  Copies draw_copies(uint32_t request, int attempt, Random& faults) const;
  // Sends every copy of an attempt towards the server, with the faults drawn for it.
  void dispatch(uint32_t request, int attempt, uint8_t key, Copies copies, Random& faults,
                Random& network);
  // Sends the server's answer to a delivery back, unless the fault drawn for it loses it.
  void send_answer(uint32_t delivery);

  Delivery& delivery(uint32_t index) { return deliveries_[index]; }
  const Delivery& delivery(uint32_t index) const { return deliveries_[index]; }
  // The copy is done with: answered, lost or crashed.
  void free(uint32_t index) { deliveries_.free(index); }
  template <class Visit>
  void for_each_delivery(Visit visit) {
    deliveries_.for_each_live(visit);
  }

 private:
  bool place_faults(Delivery& delivery, uint32_t request, int attempt, Random& faults) const;
  uint32_t new_delivery(uint32_t request, uint8_t attempt, uint8_t copy, uint8_t key);
  uint16_t crash_point(Random& random) const;

  const RunSettings& settings_;
  EventQueue& events_;
  RunTrace& trace_;
  Deliveries deliveries_;
};

}  // namespace idemlab::sim
