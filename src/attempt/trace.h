// A traced rehearsal: a strategy's first attempt and a repeat on a scratch in-memory ledger,
// step by step. `explain` prints it, so the steps and SQL shown are the ones the code runs.
#pragma once

#include <string>
#include <vector>

#include "strategies/strategy.h"

namespace idemlab {

struct TracedStep {
  std::string step;
  std::string statement;
  std::string sql;
  std::string result;  // "ok", "1 row changed", "row", "no row", "constraint", ...
  std::string values;  // what decided it: "status 1→2", "money moved", ... (step_values.h)
};

struct TracedAttempt {
  std::string label;  // "first attempt", "repeat"
  Answer answer;
  std::vector<TracedStep> steps;
};

// Each step's SQL is shown as `engine` runs it (the rehearsal itself runs on SQLite).
Status rehearse(const Strategy& strategy, Pitfall pitfall, std::vector<TracedAttempt>* out,
                Engine engine = kEmbeddedEngine);

std::string describe_result(Stmt stmt, const StepResult& result);
inline std::string describe_result(const PendingStep& step) {
  return describe_result(step.stmt, step.result);
}

}  // namespace idemlab
