// The pause fault: this whole process stops, as the kernel stops it (SIGSTOP), every thread
// with it, and a helper process continues it (SIGCONT). A sleep would keep the other threads
// running: a ZooKeeper client's heartbeats would keep its session, and so its lock, alive.
#pragma once

#include <cstdint>
#include <string>

namespace idemlab {

// Stops this process for `ms`, or with a `gate` (attempt/gate.h) until the gate opens, at most
// `ms`. The gate's arrived.<pid> file is written before the process stops.
void stop_process(int64_t ms, const std::string& gate);

}  // namespace idemlab
