// The network between clients and the server: where faults land, and what carries every copy
// of an attempt (a Delivery, owned here) until its answer is back or lost. Each copy gets its
// faults drawn from the seed, in the config's order, so every strategy meets the same ones;
// each crosses the network in 1 to 4 ms, a redelivery or a republished copy later, and a lost
// one never arrives; a deduplicating queue drops a republished copy within its window.
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
    int republished = 0;  // the producer's copies (republish), each `republish_ms` after the last
    int64_t republish_ms = 0;
  };
  Copies draw_copies(uint32_t request, int attempt, Random& faults) const;
  // Sends every copy of an attempt towards the server, with the faults drawn for it.
  void dispatch(uint32_t request, int attempt, uint8_t key, Copies copies, Random& faults,
                Random& network);
  // Sends the server's answer to a delivery back, unless the fault drawn for it loses it.
  void send_answer(uint32_t delivery);

  Delivery& delivery(uint32_t index) { return deliveries_[index]; }
  const Delivery& delivery(uint32_t index) const { return deliveries_[index]; }
  // Republished copies a deduplicating queue (queue=jetstream) dropped within its window.
  int64_t dropped_by_broker() const { return dropped_by_broker_; }
  // The copy is done with: answered, lost or crashed.
  void free(uint32_t index) { deliveries_.free(index); }
  bool in_flight(uint32_t request) const { return deliveries_.in_flight(request); }
  template <class Visit>
  void for_each_delivery(Visit visit) {
    deliveries_.for_each_live(visit);
  }

 private:
  bool place_faults(Delivery& delivery, uint32_t request, int attempt, Random& faults) const;
  uint32_t new_delivery(uint32_t request, uint8_t attempt, uint8_t copy, uint8_t key);
  uint16_t crash_point(Random& random) const;
  bool broker_drops(uint32_t request, int attempt, int copy, int64_t after_ms);

  const RunSettings& settings_;
  EventQueue& events_;
  RunTrace& trace_;
  Deliveries deliveries_;
  int64_t dropped_by_broker_ = 0;
};

}  // namespace idemlab::sim
