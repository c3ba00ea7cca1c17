// Explore and simulate runs for a strategy's card.
#include "classroom/pitfall_figures.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/shared/scenario.h"

namespace idemlab {

namespace {

// How many requests the simulated pitfall diagrams run, to find the first that breaks.
constexpr int64_t kSimulatedDiagramRequests = 40;

// How explore exposes a pitfall: with crashes when a crash is what exposes it, an overdraw for
// a lie about a rejection, a lock TTL the work outlasts. The guard runs under the same.
ExploreConfig explore_config(const PitfallInfo& pitfall) {
  ExploreConfig config;
  config.max_interleavings = 20000;
  config.crash =
      pitfall.verdict == std::string_view("stuck") || pitfall.id == Pitfall::kSuccessOnDuplicate;
  config.overdraw = pitfall.id == Pitfall::kSuccessOnDuplicate;
  if (pitfall.id == Pitfall::kTtlTooLong) config.lock_ttl_ms = 20;
  if (pitfall.id == Pitfall::kNoOwnerCheck || pitfall.id == Pitfall::kTtlTooShort)
    config.lock_ttl_ms = 3;  // the clock moves 1 ms a statement: the lock lapses mid-work
  return config;
}

// The explore command that draws what explore_config(pitfall) finds, for `shown` (the
// pitfall itself, or kNone for the guard) and interleaving `number` (0: the first breaking).
std::string explore_command(const StrategyInfo& info, const PitfallInfo& pitfall, Pitfall shown,
                            int64_t number) {
  const ExploreConfig config = explore_config(pitfall);
  std::string out =
      fmt::format("idemlab explore --strategy {}{}", info.name, pitfall_argument(shown));
  if (config.crash) out += " --crash";
  if (config.overdraw) out += " --overdraw";
  if (config.lock_ttl_ms != ExploreConfig{}.lock_ttl_ms)
    out += fmt::format(" --lock-ttl-ms {}", config.lock_ttl_ms);
  if (number > 0) out += fmt::format(" --interleaving {}", number);
  return out + " --format svg";
}

std::string breaks(const std::vector<std::string>& invariants) {
  return invariants.empty() ? std::string("breaks nothing")
                            : fmt::format("breaks {}", fmt::join(invariants, ", "));
}

// A pitfall two concurrent duplicates cannot show (it needs two sources, or a client that
// leaves the key out): the simulation its `shown_by` names, drawn for the first request the
// pitfall's verdict counts. Left empty when that run has none.
Status simulated_figure(const Strategy& strategy, const PitfallInfo& pitfall, Figure* out) {
  const std::string_view shown = pitfall.shown_by;
  const size_t at = shown.find("--scenario ");
  if (!shown.starts_with("simulate") || at == std::string_view::npos) return Status::ok();
  const std::string scenario(shown.substr(at + 11, shown.find(' ', at + 11) - at - 11));
  SimConfig config;
  RETURN_IF_ERROR(load_scenario(scenario, &config, nullptr));
  config.requests = kSimulatedDiagramRequests;
  SimOptions options;
  options.find_first = pitfall.verdict;
  SimResult found;
  RETURN_IF_ERROR(simulate(config, strategy, pitfall.id, options, &found));
  if (found.first_found == 0) return Status::ok();
  options = SimOptions{};
  options.timeline = true;
  options.timeline_request = found.first_found;
  SimResult traced;
  RETURN_IF_ERROR(simulate(config, strategy, pitfall.id, options, &traced));
  out->timeline = std::move(traced.timeline);
  out->title = fmt::format("{}{}: request {}", strategy.info().name, pitfall_argument(pitfall.id),
                           found.first_found);
  out->verdict = traced.traced_verdict;
  out->command = fmt::format(
      "idemlab simulate --strategy {}{} --scenario {} --requests {} --timeline-request {} "
      "--format svg",
      strategy.info().name, pitfall_argument(pitfall.id), scenario, config.requests,
      found.first_found);
  return Status::ok();
}

}  // namespace

Status guard_race_figure(const Strategy& strategy, RaceFigure* out) {
  const StrategyInfo& info = strategy.info();
  const PitfallInfo& main = info.pitfalls.front();
  ExploreConfig config = explore_config(main);
  config.pick = kTightestRace;
  ExploreResult result;
  RETURN_IF_ERROR(explore(strategy, Pitfall::kNone, config, &result));
  out->interleavings = result.interleavings;
  out->breaking = result.breaking;
  // The caption is the one `explore --interleaving N --format svg` draws, byte for byte.
  out->figure = {std::move(result.picked),
                 fmt::format("{}: interleaving {}", info.name, result.picked_index),
                 breaks(result.picked_invariants),
                 explore_command(info, main, Pitfall::kNone, result.picked_index)};
  return Status::ok();
}

Status pitfall_figure(const Strategy& strategy, const PitfallInfo& pitfall, Figure* out) {
  ExploreResult result;
  RETURN_IF_ERROR(explore(strategy, pitfall.id, explore_config(pitfall), &result));
  if (result.first_breaking.empty()) return simulated_figure(strategy, pitfall, out);
  *out = {std::move(result.first_breaking),
          fmt::format("{} --pitfall={}: the first breaking interleaving", strategy.info().name,
                      pitfall_name(pitfall.id)),
          breaks(result.first_breaking_invariants),
          explore_command(strategy.info(), pitfall, pitfall.id, 0)};
  return Status::ok();
}

}  // namespace idemlab
