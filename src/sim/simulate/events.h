// The simulation's events, in one queue ordered by (virtual time, sequence number): the order
// is total, so a run replays event for event. Popping an event sets the clock to its time.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "core/check.h"
#include "core/clock.h"
#include "core/limits.h"

namespace idemlab::sim {

enum class EventKind : uint8_t {
  kStart,        // a client worker starts its next request
  kSend,         // a client sends (again, after waiting for the write lock to store its token)
  kArrive,       // a copy of an attempt reaches the server
  kStep,         // an attempt runs its next step
  kWaitLimit,    // a step has waited for a lock as long as the server lets it
  kAnswer,       // an answer reaches its client
  kTimeout,      // a client stops waiting for its answer
  kRetry,        // a client's backoff is over
  kBusyRelease,  // the busy fault's other writer lets go of the lock
  kFailover      // a failover:at-ms= fault: the guard store fails over (a: the fault's index)
};

struct Event {
  int64_t at;
  uint64_t seq;
  EventKind kind;
  uint32_t a;
  uint32_t b;
  bool operator>(const Event& other) const {
    return at != other.at ? at > other.at : seq > other.seq;
  }
};

// The queue owns the run's virtual clock: only popping an event moves it, and never back.
class EventQueue {
 public:
  // Every event is scheduled `delay_ms` from now; add_ms() proves the sum cannot overflow.
  void schedule_in(int64_t delay_ms, EventKind kind, uint32_t a, uint32_t b = 0) {
    events_.push(Event{add_ms(clock_.now_ms(), delay_ms), next_seq_++, kind, a, b});
  }
  bool empty() const { return events_.empty(); }
  // The next event; the clock moves to its time.
  Event pop() {
    Event event = events_.top();
    events_.pop();
    IDEMLAB_CHECK(event.at >= clock_.now_ms(), "the event queue went back in time");
    clock_.set_ms(event.at);
    return event;
  }
  const ManualClock& clock() const { return clock_; }
  int64_t now_ms() const { return clock_.now_ms(); }

 private:
  ManualClock clock_{0};
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  uint64_t next_seq_ = 0;
};

}  // namespace idemlab::sim
