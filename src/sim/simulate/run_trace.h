// The run's timeline, kept only for the requests asked for (--timeline, --timeline-request):
// each part notes what it does to a traced request. Internal to src/sim/simulate/.
#pragma once

#include <string>
#include <vector>

#include "core/clock.h"
#include "sim/shared/timeline.h"
#include "sim/simulate/simulate.h"

namespace idemlab::sim {

class RunTrace {
 public:
  RunTrace(const SimOptions& options, const ManualClock& clock)
      : options_(options), clock_(clock) {}

  // Whether any request's timeline is kept.
  bool any() const { return options_.timeline; }
  bool traced(uint32_t request) const {
    return options_.timeline &&
           (options_.timeline_request == 0 || options_.timeline_request == request + 1);
  }
  void note(uint32_t request, int attempt, int copy, const char* actor, std::string what,
            std::string detail = {}, std::string result = {}, std::string fault = {}) {
    if (!traced(request)) return;
    events_.push_back({clock_.now_ms(), actor, request + 1, attempt, copy, std::move(what),
                       std::move(detail), std::move(result), "", std::move(fault)});
  }
  // What happens to the whole run (a failover at a time), on the timeline of every request
  // (--timeline), not one's (--timeline-request N): its "request" is 0.
  void note_run(const char* actor, std::string what, std::string result, std::string fault) {
    if (!options_.timeline || options_.timeline_request != 0) return;
    events_.push_back({clock_.now_ms(), actor, 0, 0, 0, std::move(what), "", std::move(result), "",
                       std::move(fault)});
  }
  void add(TimelineEvent event) { events_.push_back(std::move(event)); }
  std::vector<TimelineEvent> take() { return std::move(events_); }

 private:
  const SimOptions& options_;
  const ManualClock& clock_;
  std::vector<TimelineEvent> events_;
};

}  // namespace idemlab::sim
