// The simulation's events, in one queue ordered by (virtual time, sequence number): the order
// is total, so a run replays event for event. Popping an event sets the clock to its time.
#pragma once

#include <cstdint>
#include <deque>
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
//
// Most events a run schedules are a client's timeout and a lock wait's limit, each a fixed delay
// from now, and most of them are stale by the time they come up (the answer came, the lock was
// given). Scheduled at a fixed delay from a clock that never goes back, each kind's come in time
// order, so each waits in a first-in-first-out lane of its own, and only the rest in the heap:
// the heap stays a tenth the size. Popping takes the earliest of the heap's top and the lanes'
// fronts by (time, sequence number), the same total order as one heap's.
class EventQueue {
 public:
  // Every event is scheduled `delay_ms` from now; add_ms() proves the sum cannot overflow.
  void schedule_in(int64_t delay_ms, EventKind kind, uint32_t a, uint32_t b = 0) {
    const Event event{add_ms(clock_.now_ms(), delay_ms), next_seq_++, kind, a, b};
    std::deque<Event>* lane = lane_of(kind);
    if (lane && (lane->empty() || lane->back().at <= event.at))
      lane->push_back(event);
    else
      heap_.push(event);
  }
  bool empty() const { return heap_.empty() && timeouts_.empty() && wait_limits_.empty(); }
  // The next event; the clock moves to its time.
  Event pop() {
    const Event* next = heap_.empty() ? nullptr : &heap_.top();
    std::deque<Event>* from = nullptr;  // the lane `next` heads; nullptr: the heap
    for (std::deque<Event>* lane : {&timeouts_, &wait_limits_}) {
      if (lane->empty() || (next && !(*next > lane->front()))) continue;
      next = &lane->front();
      from = lane;
    }
    IDEMLAB_CHECK(next != nullptr, "pop from an empty event queue");
    const Event event = *next;
    if (from)
      from->pop_front();
    else
      heap_.pop();
    IDEMLAB_CHECK(event.at >= clock_.now_ms(), "the event queue went back in time");
    clock_.set_ms(event.at);
    return event;
  }
  const ManualClock& clock() const { return clock_; }
  int64_t now_ms() const { return clock_.now_ms(); }

 private:
  // The lane of a kind scheduled at a fixed delay, or nullptr: the heap.
  std::deque<Event>* lane_of(EventKind kind) {
    return kind == EventKind::kTimeout     ? &timeouts_
           : kind == EventKind::kWaitLimit ? &wait_limits_
                                           : nullptr;
  }

  ManualClock clock_{0};
  std::priority_queue<Event, std::vector<Event>, std::greater<>> heap_;
  std::deque<Event> timeouts_;
  std::deque<Event> wait_limits_;
  uint64_t next_seq_ = 0;
};

}  // namespace idemlab::sim
