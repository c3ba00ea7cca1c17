// The network between clients and the server: where faults land. Each copy of an attempt gets
// its faults drawn from the seed, in the config's order, so every strategy meets the same ones;
// each crosses the network in 1 to 4 ms, a redelivery later, and a lost one never arrives.
// Internal to src/sim/simulate/.
#pragma once

#include "sim/simulate/run_state.h"

namespace idemlab::sim {

class Network {
 public:
  explicit Network(RunState& run) : run_(run) {}

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

 private:
  bool place_faults(Delivery& delivery, uint32_t request, int attempt, Random& faults) const;
  uint32_t new_delivery(uint32_t request, uint8_t attempt, uint8_t copy, uint8_t key);
  uint16_t crash_point(Random& random) const;

  RunState& run_;
};

}  // namespace idemlab::sim
