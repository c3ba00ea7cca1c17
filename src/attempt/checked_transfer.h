// The application step of every attempt, in every mode: check the accounts, then run the
// strategy. (Named apart from `idemlab serve`, the HTTP command, which is one of its callers.)
#pragma once

#include "core/task.h"
#include "ledger/answer.h"
#include "strategies/strategy.h"

namespace idemlab {

// Rejects unknown or identical accounts before anything is written, then runs the strategy.
// A coroutine: `request` and `strategy` must outlive it, not just the call.
Task<Answer> checked_transfer(Session& session, const Strategy& strategy,
                              const TransferRequest& request);

// Whether an answer came from the checks in checked_transfer() (nothing was written, nothing
// is logged).
bool is_input_rejection(const Answer& answer);

}  // namespace idemlab
