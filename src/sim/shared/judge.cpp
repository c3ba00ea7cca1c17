// One request's verdicts.
#include "sim/shared/judge.h"

namespace idemlab {

RequestVerdicts judge(const RequestFacts& facts) {
  RequestVerdicts out;
  out.moved_twice_or_more = facts.pairs >= 2;
  const bool none = facts.pairs == 0;
  out.never_moved = none && facts.told_success;
  out.stuck = none && !facts.told_success && !facts.definitive && facts.gave_up_on_in_progress;
  out.unknown_to_client = facts.pairs >= 1 && !facts.definitive;
  out.refused = none && !facts.told_success && facts.definitive;
  out.gave_up = none && !facts.told_success && !facts.definitive && !facts.gave_up_on_in_progress;
  out.inconsistent_answers = facts.inconsistent;
  return out;
}

bool has_verdict(const RequestVerdicts& verdicts, std::string_view name) {
  return (name == "moved_twice_or_more" && verdicts.moved_twice_or_more) ||
         (name == "never_moved" && verdicts.never_moved) || (name == "stuck" && verdicts.stuck) ||
         (name == "unknown_to_client" && verdicts.unknown_to_client) ||
         (name == "refused" && verdicts.refused) || (name == "gave_up" && verdicts.gave_up) ||
         (name == "inconsistent_answers" && verdicts.inconsistent_answers);
}

std::vector<std::string_view> broken_invariants(const RequestVerdicts& verdicts) {
  std::vector<std::string_view> out;
  if (verdicts.moved_twice_or_more) out.push_back("moved_twice_or_more");
  if (verdicts.never_moved) out.push_back("never_moved");
  if (verdicts.inconsistent_answers) out.push_back("inconsistent_answers");
  if (verdicts.stuck) out.push_back("stuck");
  return out;
}

}  // namespace idemlab
