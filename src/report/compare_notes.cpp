// compare's findings and notes, computed from the config and the rows.
#include "report/compare_notes.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>

#include "report/compact_table.h"
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

// A note in its two forms.
struct Note {
  std::string brief;
  std::string full;
};

// The rows of one step, grouped by strategy: "every row of dedup-table", "2 rows of
// select-for-update", "direct-insert --pitfall=upsert-carries-on".
std::string grouped_rows(const std::vector<const CompareRow*>& at_step,
                         const std::map<std::string_view, int>& rows_of) {
  std::vector<std::pair<std::string_view, std::vector<const CompareRow*>>> by_strategy;
  for (const CompareRow* row : at_step) {
    const std::string_view name = row->strategy->info().name;
    auto same = std::find_if(by_strategy.begin(), by_strategy.end(),
                             [&](const auto& entry) { return entry.first == name; });
    if (same == by_strategy.end()) same = by_strategy.insert(by_strategy.end(), {name, {}});
    same->second.push_back(row);
  }
  std::vector<std::string> parts;
  for (const auto& [name, rows] : by_strategy) {
    const int total = rows_of.at(name);
    if (rows.size() == 1 && total > 1) {
      parts.push_back(row_name(*rows.front()));
    } else {
      parts.push_back(static_cast<int>(rows.size()) == total
                          ? (total == 1 ? std::string(name) : fmt::format("every row of {}", name))
                          : fmt::format("{} rows of {}", rows.size(), name));
    }
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// A slow fault at=critical pauses at each strategy's own decisive step: which step each got.
// The brief form names the step most rows got once, and groups the others' rows by strategy.
std::optional<Note> critical_placement(const FaultSpec& fault, std::span<const CompareRow> rows) {
  std::map<std::string_view, std::vector<const CompareRow*>> by_step;
  std::map<std::string_view, int> rows_of;
  std::vector<std::string> seen;
  for (const CompareRow& row : rows) {  // a row per backend names its strategy once
    if (std::find(seen.begin(), seen.end(), row_name(row)) != seen.end()) continue;
    seen.push_back(row_name(row));
    by_step[slow_default_step(row.strategy->info(), row.pitfall)].push_back(&row);
    ++rows_of[row.strategy->info().name];
  }
  if (by_step.size() < 2) return std::nullopt;
  auto most = std::max_element(by_step.begin(), by_step.end(), [](const auto& a, const auto& b) {
    return a.second.size() < b.second.size();
  });
  std::vector<std::string> full, brief{fmt::format("before '{}' in most rows", most->first)};
  for (const auto& [step, at_step] : by_step) {
    std::vector<std::string> names;
    for (const CompareRow* row : at_step) names.push_back(row_name(*row));
    full.push_back(fmt::format("before '{}' in {}", step, fmt::join(names, ", ")));
    if (step != most->first)
      brief.push_back(fmt::format("'{}' in {}", step, grouped_rows(at_step, rows_of)));
  }
  const std::string head = fmt::format(
      "note: fault {} lands at each strategy's own critical step, not at one phase for all: ",
      fault.text);
  return Note{
      head + fmt::format("{}. Rows differ partly by where it landed (--json names "
                         "each row's step).",
                         fmt::join(brief, "; ")),
      head + fmt::format("{}. Rows differ partly by where it landed.", fmt::join(full, "; "))};
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
                  std::vector<Note>* out) {
  const bool lock_table = std::any_of(rows.begin(), rows.end(), [](const CompareRow& row) {
    return row.strategy->info().uses_lock_ttl;
  });
  if (lock_table && has_fault(config, FaultKind::kCrash, Phase::kNone))
    out->push_back(Note{.brief =
                            "finding: a crash leaves lock-table's lock row until its TTL "
                            "expires; retries meanwhile answer in_progress, so lock-table needs "
                            "more attempts (not noise).",
                        .full = ""});
  const bool on_sqlite = std::any_of(rows.begin(), rows.end(),
                                     [](const CompareRow& row) { return row.server == nullptr; });
  if (on_sqlite && has_fault(config, FaultKind::kSlow, Phase::kHoldingGuard))
    out->push_back(Note{.brief =
                            "finding: a stall while holding the guard holds SQLite's one write "
                            "lock, so every strategy's other requests queue behind it (a long "
                            "transaction costs throughput).",
                        .full = ""});
}

void add_placement_notes(const SimConfig& config, std::span<const CompareRow> rows,
                         std::vector<Note>* out) {
  for (const FaultSpec& fault : config.faults)
    if (fault.kind == FaultKind::kSlow && fault.at_given && fault.step.empty() &&
        fault.phase == Phase::kNone)
      if (auto note = critical_placement(fault, rows)) out->push_back(std::move(*note));
}

// Why guarded rows apart differ, in the note's two forms.
struct GapWhy {
  std::string_view full, brief;
};
GapWhy gap_why(const SimConfig& config) {
  if (faults_land_alike(config))
    return {
        "Every fault landed at the same phase in each strategy, so the gap is the strategy's "
        "own answer to it, not where it landed.",
        "The gap is the strategy's own answer to the fault."};
  return {
      "Some fault landed at each strategy's own step (a crash with no after=, or a slow "
      "fault at=critical), so part of the gap is where it landed: name a phase to compare "
      "like for like.",
      "Part of the gap is where a fault landed: name a phase to compare like for like."};
}

std::string figures_of(const SimResult& result) {
  return fmt::format("{} {:.2f} attempts, {} unknown", result.strategy, result.attempts_per_request,
                     result.unknown_to_client);
}

// The guarded rows without a pitfall, which are expected to agree within the band when every
// fault lands alike. None on a cluster, whose counts vary from run to run (cluster_note).
std::vector<const SimResult*> band_rows(std::span<const SimResult> results) {
  std::vector<const SimResult*> guarded;
  for (const SimResult& result : results) {
    if (result.nodes > 1) return {};
    const Strategy* strategy = find_strategy(result.strategy);
    if (result.pitfall == Pitfall::kNone && strategy && strategy->info().guarded)
      guarded.push_back(&result);
  }
  return guarded;
}

// A band needs a majority inside it: a row outside it is named with its figures, so a reader
// does not take the gap for where a fault happened to land. Two rows have no band (each is as
// far from their median as the other); when most rows stand apart, the note says they spread.
std::optional<Note> band_note(const SimConfig& config, std::span<const SimResult> results) {
  const std::vector<const SimResult*> guarded = band_rows(results);
  if (guarded.size() < 3) return std::nullopt;
  std::vector<double> attempts, unknown;
  for (const SimResult* result : guarded) {
    attempts.push_back(result->attempts_per_request);
    unknown.push_back(static_cast<double>(result->unknown_to_client));
  }
  const double attempts_mid = median(attempts), unknown_mid = median(unknown);
  const double unknown_band = kUnknownBandShare * static_cast<double>(config.requests);
  std::vector<std::string> apart, apart_names, all;
  for (const SimResult* result : guarded) {
    all.push_back(figures_of(*result));
    if (std::abs(result->attempts_per_request - attempts_mid) <= kAttemptsBand / 2 + 1e-9 &&
        std::abs(static_cast<double>(result->unknown_to_client) - unknown_mid) <= unknown_band / 2)
      continue;
    apart.push_back(figures_of(*result));
    apart_names.push_back(result->strategy);
  }
  if (apart.empty()) return std::nullopt;
  const GapWhy why = gap_why(config);
  if (apart.size() * 2 > guarded.size()) {
    const std::string spread = fmt::format(
        "note: the guarded strategies share no band here ({} of {} stand apart from their "
        "median, attempts per request from {:.2f} to {:.2f}, unknown from {:.0f} to {:.0f})",
        apart.size(), guarded.size(), *std::min_element(attempts.begin(), attempts.end()),
        *std::max_element(attempts.begin(), attempts.end()),
        *std::min_element(unknown.begin(), unknown.end()),
        *std::max_element(unknown.begin(), unknown.end()));
    return Note{fmt::format("{}. {}", spread, why.brief),
                fmt::format("{}: {}. {}", spread, fmt::join(all, "; "), why.full)};
  }
  constexpr size_t kFiguresShown = 2;  // more rows apart: their names, the figures in --json
  const std::string band = fmt::format(
      "note: outside the band the guarded strategies share (attempts per request within {:.3f} "
      "of their median {:.2f}, unknown within {:.0f} of {:.0f}): ",
      kAttemptsBand / 2, attempts_mid, unknown_band / 2, unknown_mid);
  const std::string named =
      apart.size() <= kFiguresShown
          ? fmt::format("{}", fmt::join(apart, "; "))
          : fmt::format("{} (--json has their figures)", fmt::join(apart_names, ", "));
  return Note{fmt::format("{}{}. {}", band, named, why.brief),
              fmt::format("{}{}. {}", band, fmt::join(apart, "; "), why.full)};
}

// Where a result ran, for compare --backend's notes: "" without --backend.
std::string where_it_ran(const SimResult& result) {
  const std::string_view engine = engine_shown(result);
  if (result.backend.empty()) return "";
  if (!is_server(result.engine)) return std::string(engine);
  return fmt::format("{} at {}", engine, result.isolation);
}

// "note: on A and B, ..." for the engines whose note says the same.
std::string on_engines(const std::vector<std::string>& wheres, std::string_view note) {
  if (wheres.size() == 1 && wheres.front().empty()) return std::string(note);
  std::string places = wheres.front();
  for (size_t i = 1; i < wheres.size(); ++i)
    places += fmt::format("{}{}", i + 1 == wheres.size() ? " and " : ", ", wheres[i]);
  return fmt::format("note: on {}, {}", places, note.substr(6));
}

// A cluster's rows are not the same from run to run, and the table says so.
std::optional<std::string> cluster_note(std::span<const SimResult> results) {
  const auto spread =
      std::find_if(results.begin(), results.end(), [](const SimResult& r) { return r.nodes > 1; });
  if (spread == results.end()) return std::nullopt;
  return fmt::format(
      "note: on galera, each client's connection went to the next of the cluster's {} nodes, "
      "and each statement waited until its node had applied what the cluster committed before "
      "it (wsrep_sync_wait=15 unless the URL says otherwise). Certification and the nodes' "
      "appliers run on the servers' own threads, outside the run's schedule: attempts, p99 and "
      "a pitfall's counts vary from run to run, where one server's do not.",
      spread->nodes);
}

}  // namespace

CompareNotes compare_notes(const SimConfig& config, std::span<const CompareRow> rows,
                           std::span<const SimResult> results) {
  std::vector<Note> notes;
  add_findings(config, rows, &notes);
  add_placement_notes(config, rows, &notes);
  CompareNotes out;
  for (Note& note : notes) {
    out.full.push_back(note.full.empty() ? note.brief : note.full);
    out.brief.push_back(std::move(note.brief));
  }
  // The band is the guarded strategies' on one engine at one level: compare --backend's rows
  // are grouped by where they ran, in the order they first appear.
  std::vector<std::pair<std::string, std::vector<SimResult>>> groups;
  for (const SimResult& result : results) {
    const std::string where = where_it_ran(result);
    auto group =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == where; });
    if (group == groups.end()) group = groups.insert(groups.end(), {where, {}});
    group->second.push_back(result);
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> briefs;  // note, where
  for (const auto& [where, group] : groups) {
    std::optional<Note> note = band_note(config, group);
    if (!note) continue;
    out.full.push_back(on_engines({where}, note->full));
    auto same = std::find_if(briefs.begin(), briefs.end(),
                             [&](const auto& b) { return b.first == note->brief; });
    if (same == briefs.end()) same = briefs.insert(briefs.end(), {note->brief, {}});
    same->second.push_back(where);
  }
  for (const auto& [brief, wheres] : briefs) out.brief.push_back(on_engines(wheres, brief));
  if (std::optional<std::string> cluster = cluster_note(results)) {
    out.brief.push_back(*cluster);
    out.full.push_back(*cluster);
  }
  return out;
}

}  // namespace idemlab
