// Every copy of an attempt in flight, from the network to the server's answer, owned by the
// Network (network.h). Internal to src/sim/simulate/.
#pragma once

#include <cstdint>
#include <vector>

#include "attempt/fault_site.h"
#include "core/check.h"
#include "db/connection.h"
#include "ledger/answer.h"

namespace idemlab::sim {

struct Delivery {
  bool live = false;
  uint32_t request = 0;
  uint8_t attempt = 0;
  uint8_t copy = 0;
  uint8_t key = 0;
  uint8_t node = 0;  // ledger=galera: the cluster node (0-based) its attempt runs on
  bool response_lost = false;
  FaultSites sites;                   // where its crash and slow faults land
  int64_t after_commit_pause_ms = 0;  // slow:at=after-commit, once the money is committed
  int64_t busy_ms = 0;
  int64_t replay_pause_ms = 0;  // replay-pause: the standby stops replaying as it arrives
  int64_t wait_start_ms = -1;   // when its step first found a lock taken; -1: not waiting
  bool asleep = false;          // waiting with no step scheduled: woken when a lock is released
  size_t slot = 0;              // its attempt in the stepper
  Connection* connection = nullptr;
  // On a server: a statement sent and not yet answered, whether the server says it waits for a
  // lock, its values (for the timeline), and the server's number for the connection.
  bool in_flight = false;
  bool lock_waiting = false;
  Binds sent_binds;
  int64_t session = 0;
  Answer answer;
  bool doomed = false;  // its transaction died with the ledger's old primary (a failover)
};

// The deliveries, in slots reused last freed first: a slot's number names the attempt's lock
// owner ("worker-N"), so the order of reuse is part of a run's bytes.
class Deliveries {
 public:
  uint32_t add(uint32_t request) {
    uint32_t index;
    if (free_.empty()) {
      index = static_cast<uint32_t>(all_.size());
      all_.emplace_back();
    } else {
      index = free_.back();
      free_.pop_back();
    }
    all_[index] = Delivery{};
    all_[index].live = true;
    all_[index].request = request;
    if (request >= in_flight_.size()) in_flight_.resize(request + 1);
    ++in_flight_[request];
    return index;
  }
  void free(uint32_t index) {
    IDEMLAB_CHECK(all_[index].live, "a delivery freed twice");
    all_[index].live = false;
    free_.push_back(index);
    --in_flight_[all_[index].request];
  }
  // Whether a copy of an attempt of `request` is in flight: sent, and not yet answered or lost.
  bool in_flight(uint32_t request) const {
    return request < in_flight_.size() && in_flight_[request] != 0;
  }
  // Calls `visit(index, delivery)` for every delivery in flight.
  template <class Visit>
  void for_each_live(Visit visit) {
    for (uint32_t index = 0; index < all_.size(); ++index)
      if (all_[index].live) visit(index, all_[index]);
  }
  Delivery& operator[](uint32_t index) { return all_[index]; }
  const Delivery& operator[](uint32_t index) const { return all_[index]; }

 private:
  std::vector<Delivery> all_;
  std::vector<uint32_t> free_;
  std::vector<uint16_t> in_flight_;  // copies in flight, by request
};

}  // namespace idemlab::sim
