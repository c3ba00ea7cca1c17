// Explore's walk over the interleavings: depth-first by replay, whichever replayer runs them.
// Each run takes the prefix it is given, then the first enabled attempt at every step to its
// end; the next prefix is the deepest step with an untried choice. On a server, a prefix the
// server answers another way than before is run again (replay()).
#include <fmt/format.h>

#include "core/interrupt.h"
#include "sim/explore/replayer.h"

namespace idemlab {

namespace {

// The schedule after `run` in depth-first order: the deepest step with an enabled attempt
// after the one chosen. Empty when every schedule has been tried.
std::vector<int> next_prefix(const ExploreRun& run) {
  for (size_t depth = run.schedule.size(); depth-- > 0;) {
    const auto& enabled = run.enabled[depth];
    auto chosen = std::find(enabled.begin(), enabled.end(), run.schedule[depth]);
    if (chosen + 1 != enabled.end()) {
      std::vector<int> prefix(run.schedule.begin(),
                              run.schedule.begin() + static_cast<long>(depth));
      prefix.push_back(*(chosen + 1));
      return prefix;
    }
  }
  return {};
}

// How often the attempts take turns in a schedule.
int switches(const std::vector<int>& schedule) {
  int out = 0;
  for (size_t i = 1; i < schedule.size(); ++i) out += schedule[i] != schedule[i - 1];
  return out;
}

// Keeps `run` as the picked interleaving if it is the one ExploreConfig::pick asks for.
void consider_pick(const ExploreRun& run, FaultPoint crash, const ExploreConfig& config,
                   ExploreResult* result) {
  const bool wanted =
      config.pick == kTightestRace
          ? result->picked_index == 0 || switches(run.schedule) > switches(result->picked_schedule)
          : config.pick == result->interleavings;
  if (!wanted) return;
  result->picked_index = result->interleavings;
  result->picked_schedule = run.schedule;
  result->picked_point = crash;
  result->picked_invariants = run.broken;
}

// Marks `run` diverged where its choices differ from those of the run its prefix came from
// (`before`) at a step of the prefix: the server answered the same steps another way.
void check_replayed(const ExploreRun& before, size_t prefix_steps, ExploreRun* run) {
  for (size_t depth = 0; run->diverged_step == 0 && depth < prefix_steps; ++depth)
    if (depth >= run->enabled.size() || run->enabled[depth] != before.enabled[depth]) {
      run->diverged_step = static_cast<int>(depth) + 1;
      run->redundant = true;
    }
}

// Runs `prefix`, again while the server answers it otherwise than it did in `before` (on
// PostgreSQL, several statements woken by one commit race for a row), at most kReplayTries
// times. Counts each run again in result->replays_repeated. `out` diverged: it never matched.
constexpr int kReplayTries = 20;
Status replay(Replayer& explorer, const ExploreRun& before, const std::vector<int>& prefix,
              FaultPoint crash, bool record, ExploreResult* result, ExploreRun* out) {
  for (int tries = 0;; ++tries) {
    *out = ExploreRun{};
    RETURN_IF_ERROR(explorer.run(prefix, crash, record, out));
    check_replayed(before, std::min(prefix.size(), before.enabled.size()), out);
    if (out->diverged_step == 0 || tries + 1 == kReplayTries) return Status::ok();
    ++result->replays_repeated;
  }
}

// The branch `prefix` names, as the run it came from (`before`) saw it: what next_prefix()
// skips to when the server never answered that prefix again as it did.
ExploreRun branch_of(const ExploreRun& before, const std::vector<int>& prefix) {
  ExploreRun branch;
  branch.schedule = prefix;
  branch.enabled.assign(before.enabled.begin(),
                        before.enabled.begin() + static_cast<long>(prefix.size()));
  return branch;
}

// The first breaking interleaving, and the first that breaks only with a fault point: one whose
// schedule broke nothing when it ran without one (the plain pass runs first).
void note_breaking(const ExploreRun& run, const FaultPoint& point, ExploreResult* result) {
  if (result->first_breaking_schedule.empty()) {
    result->first_breaking_schedule = run.schedule;
    result->first_breaking_point = point;
    result->first_breaking_invariants = run.broken;
  }
  const bool plain = point.attempt < 0 && point.failover_after == 0 &&
                     point.ledger_failover_after == 0 && point.replica_applies < 0 &&
                     point.apply_lag_ms < 0;
  if (plain) {
    result->plain_breaking.insert(run.schedule);
  } else if (result->fault_breaking_schedule.empty() &&
             !result->plain_breaking.count(run.schedule)) {
    result->fault_breaking_schedule = run.schedule;
    result->fault_breaking_point = point;
    result->fault_breaking_invariants = run.broken;
  }
}

}  // namespace

Status explore_schedules(Replayer& explorer, FaultPoint crash, const ExploreConfig& config,
                         ExploreResult* result, bool* reached) {
  std::vector<int> prefix;
  ExploreRun before;  // the run (or skipped branch) `prefix` came from
  do {
    RETURN_IF_ERROR(check_interrupt());
    if (result->interleavings >= config.max_interleavings) {
      result->truncated = true;
      return Status::ok();
    }
    ExploreRun run;
    RETURN_IF_ERROR(replay(explorer, before, prefix, crash, false, result, &run));
    if (run.diverged_step > 0) {
      ++result->branches_not_replayed;
      before = branch_of(before, prefix);
      prefix = next_prefix(before);
      continue;
    }
    prefix = next_prefix(run);
    before.schedule = run.schedule;
    before.enabled = std::move(run.enabled);
    if (run.redundant) continue;
    ++result->interleavings;
    *reached |= run.crashed || run.failed_over || run.replica_missed || run.lag_landed;
    result->blocking += run.waited;
    result->deadlocking += run.deadlocked;
    result->unserializable += run.serialized;
    result->unique_violations += run.unique_violation;
    if (run.deadlocked && crash.attempt < 0 && result->first_deadlock_index == 0) {
      result->first_deadlock_index = result->interleavings;
      result->first_deadlock_schedule = run.schedule;
      result->first_deadlock_victim = run.victim;
    }
    if (config.pick != 0) consider_pick(run, crash, config, result);
    if (!run.broken.empty()) {
      ++result->breaking;
      for (const auto& invariant : run.broken) ++result->by_invariant[invariant];
      note_breaking(run, crash, result);
    }
  } while (!prefix.empty());
  return Status::ok();
}

// The timeline of one interleaving already tried, run again to record it.
Status replay_timeline(Replayer& explorer, const std::vector<int>& schedule, FaultPoint crash,
                       ExploreResult* result, std::vector<TimelineEvent>* out) {
  ExploreRun run;
  RETURN_IF_ERROR(replay(explorer, ExploreRun{}, schedule, crash, true, result, &run));
  if (run.diverged_step > 0) {
    std::vector<int> one_based;
    for (int attempt : schedule) one_based.push_back(attempt + 1);
    return Status::internal(fmt::format(
        "the server answered an interleaving differently each of {} times it was run again, "
        "from step {} on (attempt per step: {})",
        kReplayTries, run.diverged_step, fmt::join(one_based, " ")));
  }
  *out = std::move(run.timeline);
  return Status::ok();
}

}  // namespace idemlab
