// compare's findings and notes, computed from the config and the rows.
#include "cli/compare_notes.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>

#include "term/text.h"

namespace idemlab {

namespace {

bool has_fault(const SimConfig& config, FaultKind kind, Phase phase) {
  return std::any_of(config.faults.begin(), config.faults.end(), [&](const FaultSpec& f) {
    const Phase landed = f.kind == FaultKind::kSlow && !f.at_given ? kSimulatedSlowPhase : f.phase;
    return f.kind == kind && (phase == Phase::kNone || landed == phase);
  });
}

std::string row_name(const CompareRow& row) {
  return std::string(row.strategy->info().name) + pitfall_argument(row.pitfall);
}

// A slow fault at=critical pauses at each strategy's own decisive step: which step each got.
std::optional<std::string> critical_placement(const FaultSpec& fault,
                                              std::span<const CompareRow> rows) {
  std::map<std::string_view, std::vector<std::string>> by_step;
  for (const CompareRow& row : rows) {  // a row per backend names its strategy once
    std::vector<std::string>& names = by_step[slow_default_step(row.strategy->info(), row.pitfall)];
    if (std::find(names.begin(), names.end(), row_name(row)) == names.end())
      names.push_back(row_name(row));
  }
  if (by_step.size() < 2) return std::nullopt;
  std::vector<std::string> parts;
  for (const auto& [step, names] : by_step)
    parts.push_back(fmt::format("before '{}' in {}", step, fmt::join(names, ", ")));
  return fmt::format(
      "note: fault {} lands at each strategy's own critical step, not at one "
      "phase for all: {}. Rows differ partly by where it landed.",
      fault.text, fmt::join(parts, "; "));
}

// Whether every slow and crash fault lands at one phase for every strategy.
bool faults_land_alike(const SimConfig& config) {
  return std::all_of(config.faults.begin(), config.faults.end(), [](const FaultSpec& f) {
    if (f.kind == FaultKind::kSlow) return !f.at_given || f.phase != Phase::kNone;
    if (f.kind == FaultKind::kCrash) return f.phase != Phase::kNone;
    return true;
  });
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

void add_findings(const SimConfig& config, std::span<const CompareRow> rows,
                  std::vector<std::string>* out) {
  const bool lock_table = std::any_of(rows.begin(), rows.end(), [](const CompareRow& row) {
    return row.strategy->info().uses_lock_ttl;
  });
  if (lock_table && has_fault(config, FaultKind::kCrash, Phase::kNone))
    out->push_back(
        "finding: a crash leaves lock-table's lock row until its TTL expires; retries "
        "meanwhile answer in_progress, so lock-table needs more attempts (not noise).");
  const bool on_sqlite = std::any_of(rows.begin(), rows.end(),
                                     [](const CompareRow& row) { return row.server == nullptr; });
  if (on_sqlite && has_fault(config, FaultKind::kSlow, Phase::kHoldingGuard))
    out->push_back(
        "finding: a stall while holding the guard holds SQLite's one write lock, so every "
        "strategy's other requests queue behind it (a long transaction costs throughput).");
}

void add_placement_notes(const SimConfig& config, std::span<const CompareRow> rows,
                         std::vector<std::string>* out) {
  for (const FaultSpec& fault : config.faults)
    if (fault.kind == FaultKind::kSlow && fault.at_given && fault.step.empty() &&
        fault.phase == Phase::kNone)
      if (auto note = critical_placement(fault, rows)) out->push_back(std::move(*note));
}

// Guarded rows without a pitfall are expected to agree within the band when every fault lands
// alike; a row outside it is named with its figures, so a reader does not take the gap for
// where a fault happened to land.
std::optional<std::string> band_note(const SimConfig& config, std::span<const SimResult> results) {
  std::vector<const SimResult*> guarded;
  for (const SimResult& result : results) {
    const Strategy* strategy = find_strategy(result.strategy);
    if (result.pitfall == Pitfall::kNone && strategy && strategy->info().guarded)
      guarded.push_back(&result);
  }
  if (guarded.size() < 2) return std::nullopt;
  std::vector<double> attempts, unknown;
  for (const SimResult* result : guarded) {
    attempts.push_back(result->attempts_per_request);
    unknown.push_back(static_cast<double>(result->unknown_to_client));
  }
  const double attempts_mid = median(attempts), unknown_mid = median(unknown);
  const double unknown_band = kUnknownBandShare * static_cast<double>(config.requests);
  const std::string_view why =
      faults_land_alike(config)
          ? "Every fault landed at the same phase in each strategy, so the gap is the "
            "strategy's own answer to it, not where it landed."
          : "Some fault landed at each strategy's own step (a crash with no after=, or a slow "
            "fault at=critical), so part of the gap is where it landed: name a phase to compare "
            "like for like.";
  std::vector<std::string> apart;
  for (const SimResult* result : guarded) {
    const bool off_attempts =
        std::abs(result->attempts_per_request - attempts_mid) > kAttemptsBand / 2 + 1e-9;
    const bool off_unknown =
        std::abs(static_cast<double>(result->unknown_to_client) - unknown_mid) > unknown_band / 2;
    if (off_attempts || off_unknown)
      apart.push_back(fmt::format("{} {:.2f} attempts, {} unknown", result->strategy,
                                  result->attempts_per_request, result->unknown_to_client));
  }
  if (apart.empty()) return std::nullopt;
  return fmt::format(
      "note: outside the band the guarded strategies share (attempts per "
      "request within {:.3f} of their median {:.2f}, unknown within {:.0f} of "
      "{:.0f}): {}. {}",
      kAttemptsBand / 2, attempts_mid, unknown_band / 2, unknown_mid, fmt::join(apart, "; "), why);
}

}  // namespace

std::vector<std::string> compare_notes(const SimConfig& config, std::span<const CompareRow> rows,
                                       std::span<const SimResult> results) {
  std::vector<std::string> out;
  add_findings(config, rows, &out);
  add_placement_notes(config, rows, &out);
  // The band is the guarded strategies' on one engine at one level: compare --backend's rows
  // are grouped by where they ran, in the order they first appear.
  std::vector<std::pair<std::string, std::vector<SimResult>>> groups;
  for (const SimResult& result : results) {
    const std::string_view engine = engine_name(result.engine);
    const std::string where = result.backend.empty() ? ""
                              : !is_server(result.engine)
                                  ? std::string(engine)
                                  : fmt::format("{} at {}", engine, result.isolation);
    auto group =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == where; });
    if (group == groups.end()) group = groups.insert(groups.end(), {where, {}});
    group->second.push_back(result);
  }
  for (const auto& [where, group] : groups)
    if (auto note = band_note(config, group))
      out.push_back(where.empty() ? std::move(*note)
                                  : fmt::format("note: on {}, {}", where, note->substr(6)));
  return out;
}

}  // namespace idemlab
