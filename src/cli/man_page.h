// idemlab(1) in roff, from the command definitions (cli/command_docs.h).
#pragma once

#include <string>

#include "cli/command_docs.h"

namespace idemlab {

std::string man_page(const CliDoc& cli);

}  // namespace idemlab
