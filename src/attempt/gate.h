// A gate for races between processes (slow:gate=DIR, one-attempt commands only): an attempt
// that reaches its pause site says it arrived, then waits until whoever runs the race opens the
// gate. So a script can hold every twin at the decisive step and let them go together, making
// their overlap certain instead of likely (scripts/race --gate).
#pragma once

#include <cstdint>
#include <string>

namespace idemlab {

// Creates DIR/arrived.<pid>, then waits until DIR/open exists, or `cap_ms` passed (so a race
// whose runner died does not hang forever). Returns whether the gate opened.
bool wait_at_gate(const std::string& dir, int64_t cap_ms);

}  // namespace idemlab
