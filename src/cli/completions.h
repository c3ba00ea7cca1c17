// Shell completions for bash, zsh and fish, from the command definitions (cli/command_docs.h):
// commands, options, and the values of those that take names (strategies, pitfalls,
// scenarios, faults, lessons, and every IsMember list).
#pragma once

#include <string>

#include "cli/command_docs.h"

namespace idemlab {

std::string bash_completion(const CliDoc& cli);
std::string zsh_completion(const CliDoc& cli);
std::string fish_completion(const CliDoc& cli);

}  // namespace idemlab
