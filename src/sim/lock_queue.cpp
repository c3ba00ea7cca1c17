// The write-lock waiters: a step that finds SQLite's write lock taken sleeps in a FIFO queue and
// is woken when the lock is free.
#include "sim/simulation.h"

namespace idemlab::sim {

// The write lock is held across steps only by an open write transaction, so a step that finds
// it taken sleeps in a queue instead of polling, and the longest sleeper is woken when the lock
// is free. (SQLite's own busy handler retries on a timer and is not fair; a FIFO queue is the
// simpler model and avoids every waiter retrying at once.) The wait limit is its own event.
void Simulation::wake_next() {
  if (lock_holder_ != kNoHolder || woken_ != kNoHolder) return;
  while (!sleepers_.empty()) {
    uint32_t index = sleepers_.front();
    sleepers_.pop_front();
    Delivery& delivery = deliveries_[index];
    if (!delivery.live || !delivery.asleep) continue;
    delivery.asleep = false;
    woken_ = index;
    schedule_in(kLockPollMs, Kind::kStep, index);
    return;
  }
}

void Simulation::update_lock_holder(uint32_t index, bool holds) {
  if (holds)
    lock_holder_ = index;
  else if (lock_holder_ == index)
    lock_holder_ = kNoHolder;
}

}  // namespace idemlab::sim
