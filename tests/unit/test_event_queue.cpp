// Tests for sim/simulate/events.h: whatever lane an event waits in, each pop hands out the
// earliest pending event by (time, sequence number), as one heap would.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <set>
#include <utility>

#include "sim/simulate/events.h"

using namespace idemlab::sim;

TEST_CASE("the event queue pops the earliest pending event, whatever its lane") {
  bool ok = rc::check("each pop is the least (time, order scheduled) pending", [] {
    EventQueue queue;
    std::set<std::pair<int64_t, uint32_t>> pending;  // the model: (due, order scheduled)
    uint32_t scheduled = 0;
    const auto pop_and_compare = [&] {
      const Event event = queue.pop();
      RC_ASSERT(!pending.empty());
      RC_ASSERT(std::make_pair(event.at, event.a) == *pending.begin());
      RC_ASSERT(queue.now_ms() == event.at);
      pending.erase(pending.begin());
    };
    const int rounds = *rc::gen::inRange(1, 200);
    for (int round = 0; round < rounds; ++round) {
      // Most a timeout or a wait limit at its fixed delay; some of any kind at any delay (the
      // two lanes' kinds too, which must then wait in the heap).
      const int count = *rc::gen::inRange(0, 4);
      for (int i = 0; i < count; ++i) {
        const auto kind = static_cast<EventKind>(*rc::gen::inRange(0, 10));
        const bool fixed = *rc::gen::arbitrary<bool>();
        const int64_t delay = fixed && kind == EventKind::kTimeout     ? 300
                              : fixed && kind == EventKind::kWaitLimit ? 1000
                                                                       : *rc::gen::inRange(0, 1500);
        pending.emplace(queue.now_ms() + delay, scheduled);
        queue.schedule_in(delay, kind, scheduled++);
      }
      if (!queue.empty() && *rc::gen::arbitrary<bool>()) pop_and_compare();
    }
    while (!queue.empty()) pop_and_compare();
    RC_ASSERT(pending.empty());
  });
  CHECK(ok);
}
