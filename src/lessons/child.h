// A lesson's commands as child processes: one at a time, or twins held at a gate.
#pragma once

#include <csignal>
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

// A program a step runs other than idemlab (curl), found on PATH; empty if it is not there.
std::string program_path(const std::string& name);

// A server a lesson starts (idemlab serve): it runs in its folder with its output in a file,
// until the lesson stops it.
struct Background {
  int pid = -1;
  std::string output_path;
};
Status start_background(const std::string& binary, const std::string& folder,
                        const std::vector<std::string>& args, Background* out);
// The first line of its output that starts with `prefix`, once written (at most 60 s).
Status wait_for_line(const Background& server, const std::string& prefix, std::string* line);
// Signals it (SIGTERM unless told), then waits for it.
void stop_background(Background* server, int signal = SIGTERM);

// A command held at the gate its fault names (gate, in `folder`, made afresh): returns once it
// has arrived there; an end before it is an error.
Status start_held(const std::string& binary, const std::string& folder,
                  const std::vector<std::string>& args, Background* out);
// Opens the gate and waits for the held command to end.
Status release_held(const std::string& folder, Background* held, Ran* out);

}  // namespace idemlab
