// The server side of one attempt, common to every mode: check the accounts, run the strategy.
#pragma once

#include "core/task.h"
#include "ledger/answer.h"
#include "strategies/strategy.h"

namespace idemlab {

// Rejects unknown or identical accounts before anything is written, then runs the strategy.
// A coroutine: `request` and `strategy` must outlive it, not just the call.
Task<Answer> serve(Session& session, const Strategy& strategy, const TransferRequest& request);

// Whether an answer came from the checks in serve() (nothing was written, nothing is logged).
bool is_input_rejection(const Answer& answer);

// Checks that a fault's step exists in the strategy (crash:after=, slow:at=).
Status check_fault_steps(const struct FaultSpec& fault, const StrategyInfo& info, Pitfall pitfall);

}  // namespace idemlab
