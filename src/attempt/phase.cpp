// Phase names.
#include "attempt/phase.h"

#include <array>
#include <utility>

namespace idemlab {

namespace {
constexpr std::array<std::pair<Phase, std::string_view>, 3> kPhases{{
    {Phase::kBeforeGuard, "before-guard"},
    {Phase::kHoldingGuard, "holding-guard"},
    {Phase::kAfterCommit, "after-commit"},
}};
}  // namespace

std::optional<Phase> phase_from_name(std::string_view name) {
  for (const auto& [phase, text] : kPhases)
    if (text == name) return phase;
  return std::nullopt;
}

std::string_view phase_name(Phase phase) {
  for (const auto& [known, text] : kPhases)
    if (known == phase) return text;
  return "";
}

}  // namespace idemlab
