// A lesson's commands as child processes: one at a time, or twins held at a gate.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace idemlab {

struct Ran {
  int exit_code = -1;
  std::string output;  // stdout and stderr, interleaved as written
};

// Runs `binary args...` in `folder`, collecting its output.
Status run_command(const std::string& binary, const std::string& folder,
                   const std::vector<std::string>& args, Ran* out);

// Runs `count` copies of `binary args...` at once in `folder`. Each copy waits at the gate
// `folder`/gate (its args name it: --fault slow:gate=gate), and the gate opens once every copy
// has arrived there or ended, so the copies overlap for certain. `out` is in the order started.
Status run_twins(const std::string& binary, const std::string& folder,
                 const std::vector<std::string>& args, int count, std::vector<Ran>* out);

}  // namespace idemlab
