// compare's table for people: the compact view (report/compact_table.h).
#include "report/compact_table.h"

#include <fmt/format.h>

#include <algorithm>

#include "term/color.h"
#include "term/text.h"
#include "term/width.h"

namespace idemlab {

bool has_backends(const std::vector<SimResult>& results) {
  return std::any_of(results.begin(), results.end(),
                     [](const SimResult& r) { return !r.backend.empty(); });
}

// "sqlite", "postgresql RC", "mariadb RR": the engine and level, short enough for the table.
std::string_view engine_shown(const SimResult& r) {
  return r.nodes > 1 ? "galera" : engine_name(r.engine);
}

std::string engine_label(const SimResult& r) {
  const std::string_view engine = engine_shown(r);
  if (!is_server(r.engine)) return std::string(engine);
  static const std::pair<std::string_view, const char*> kShort[] = {
      {"read-committed", "RC"}, {"repeatable-read", "RR"}, {"serializable", "SER"}};
  for (const auto& [level, short_level] : kShort)
    if (r.isolation == level) return fmt::format("{} {}", engine, short_level);
  return fmt::format("{} {}", engine, r.isolation);
}

namespace {

// A count that is a failure when it is not zero: red then.
std::string alarm(int64_t count) {
  return count == 0 ? "0" : paint(std::to_string(count), Tone::kBad);
}

std::string moved_cell(const SimResult& r) {
  return fmt::format("{}/{}/{}", r.moved_once, alarm(r.moved_twice_or_more), r.not_moved);
}

// A row's name in the compact table: the strategy, or its pitfall as "+NAME" under it.
std::string compact_name(const SimResult& r, bool narrow) {
  return r.pitfall == Pitfall::kNone
             ? r.strategy
             : (narrow ? "+" : "  +") + std::string(pitfall_name(r.pitfall));
}

std::vector<std::string> compact_cells(const SimResult& r) {
  return {moved_cell(r),
          alarm(r.never_moved),
          alarm(r.stuck),
          alarm(r.gave_up),
          std::to_string(r.unknown_to_client),
          std::to_string(r.refused),
          alarm(r.inconsistent_answers),
          std::to_string(r.latency_ms_p99),
          paint_outcome(r.audit_ok ? "ok" : "FAIL")};
}

// compare --backend's rows: a strategy's rows on each engine follow each other. `engine_column`:
// the engine in a column of its own, the name on its first row; otherwise each engine on a
// row of its own under the name (narrower).
void add_engine_rows(const std::vector<SimResult>& results, bool narrow, bool engine_column,
                     TextTable* table) {
  const SimResult* previous = nullptr;
  for (const auto& r : results) {
    const bool first_of_group =
        !previous || previous->strategy != r.strategy || previous->pitfall != r.pitfall;
    std::vector<std::string> row = compact_cells(r);
    if (engine_column) {
      row.insert(row.begin(), {first_of_group ? compact_name(r, narrow) : "", engine_label(r)});
    } else {
      if (first_of_group) table->rows.push_back({compact_name(r, narrow)});
      const std::string indent(r.pitfall == Pitfall::kNone ? 2 : (narrow ? 3 : 5), ' ');
      row.insert(row.begin(), indent + engine_label(r));
    }
    table->rows.push_back(std::move(row));
    previous = &r;
  }
}

size_t widest_line(const std::string& text) {
  size_t widest = 0, start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    widest = std::max(widest, visible_width(std::string_view(text).substr(start, end - start)));
  return widest;
}

// The table that fits 100 columns: a pitfall row is its strategy's "+NAME" line, the three
// moved counts share a column, every verdict has its own, the audit says ok or FAIL (compare's
// legend says the rest); of the costs only p99 (--wide shows attempts per request). Under 100
// columns it narrows further: one space between columns, shorter headers, pitfall rows
// indented by their "+" alone.
}  // namespace

std::string compact_table(const std::vector<SimResult>& results) {
  const bool narrow = output_width() < kDefaultWidth;
  const TextTable empty{
      {"strategy", "moved 1/2+/0", "lied", "stuck", "gave", narrow ? "unkn" : "unknown",
       narrow ? "refus" : "refused", "incon", "p99", "audit"},
      {false, true, true, true, true, true, true, true, true, false},
      {},
      narrow ? size_t{1} : size_t{2}};
  if (!has_backends(results)) {
    TextTable table = empty;
    for (const auto& r : results) {
      table.rows.push_back(compact_cells(r));
      table.rows.back().insert(table.rows.back().begin(), compact_name(r, narrow));
    }
    return table.render();
  }
  TextTable side_by_side = empty;
  side_by_side.header.insert(side_by_side.header.begin() + 1, "engine");
  side_by_side.right_aligned.insert(side_by_side.right_aligned.begin() + 1, false);
  add_engine_rows(results, narrow, true, &side_by_side);
  std::string out = side_by_side.render();
  if (widest_line(out) <= output_width()) return out;
  TextTable stacked = empty;
  stacked.header[0] = "strategy, engine";
  add_engine_rows(results, narrow, false, &stacked);
  // A name's own row is padded to the table's width: trim it.
  const std::string table = stacked.render();
  std::string out_lines;
  size_t start = 0;
  for (size_t end; (end = table.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string_view line = std::string_view(table).substr(start, end - start);
    out_lines += std::string(line.substr(0, line.find_last_not_of(' ') + 1)) + "\n";
  }
  return out_lines;
}

std::string compact_table_legend() {
  return wrap(
      "moved 1/2+/0: requests whose money the journal moved once, twice or more, or not at "
      "all. lied: told success, nothing moved. stuck: not moved, the client gave up on "
      "in_progress. gave: not moved, the client gave up with no final answer (busy, "
      "timeouts). unknown (unkn): moved, the client never heard. refused (refus): not moved, "
      "a definitive refusal. incon: two answers to one request disagree. "
      "p99: virtual ms to a final answer. audit: idemlab audit on the ledger. A +NAME row "
      "is the strategy above it run with --pitfall=NAME. --wide shows every column.",
      0);
}

}  // namespace idemlab
