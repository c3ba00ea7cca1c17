// A timeline: what happened in a run, event by event, on its virtual clock. simulate narrates
// one (--timeline), explore records the interleaving it shows, and the diagrams draw both.
#pragma once

#include <cstdint>
#include <string>

namespace idemlab {

struct TimelineEvent {
  int64_t at_ms = 0;
  std::string actor;    // client, network, server
  int64_t request = 0;  // 1-based
  int attempt = 0;      // the client's attempt number (1-based)
  int copy = 0;         // which copy of the attempt (double submit, redelivery)
  std::string what;     // the step name or the event
  std::string detail;   // more words (for a step: empty)
  std::string result;   // for a step: the values that decided it (attempt/step_values.h)
  std::string sql;      // for a step: its SQL (timelines show it with --sql)
  std::string fault;    // the fault injected here, if any
};

}  // namespace idemlab
