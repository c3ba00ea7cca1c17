// Which faults a command takes, decided in one place: the fault table's surfaces column
// (fault.h) and check_faults() below. Every command that takes --fault calls check_faults()
// with its surface, and writes its --fault help with fault_help(): neither is written twice.
#pragma once

#include <string>
#include <vector>

#include "attempt/fault.h"
#include "strategies/strategy.h"

namespace idemlab {

// Holds `faults` to what `surface` takes: each fault's kind; p= and nth= only where faults
// are drawn among many requests (serve, consume, a simulation); gate= only where an attempt
// is a process of its own; one crash and one slow per attempt, and one wire fault; crash with
// after= outside a simulation; and every step named reached by `strategy` with `pitfall` (by
// some strategy when `strategy` is null, as in a simulation or a scenario file).
Status check_faults(Surface surface, const std::vector<FaultSpec>& faults, const Strategy* strategy,
                    Pitfall pitfall);

// Checks that a fault's step exists in the strategy (crash:after=, slow:at=).
Status check_fault_steps(const FaultSpec& fault, const StrategyInfo& info, Pitfall pitfall);

// --fault's help on `surface`: the faults it takes, and how they are aimed there.
std::string fault_help(Surface surface);

// The commands that take `fault`, by name: "one attempt, http, serve, limit, simulate".
std::vector<std::string_view> fault_surfaces(const FaultInfo& fault);

// The faults `surface` takes, by name: "request-lost, response-lost, slow and crash".
std::string fault_names(Surface surface);

}  // namespace idemlab
