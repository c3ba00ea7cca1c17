// Simulation views.
#include "report/sim_view.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "db/locator.h"
#include "report/compact_table.h"
#include "report/json.h"
#include "term/command_text.h"
#include "term/text.h"
#include "term/width.h"

namespace idemlab {

namespace {

struct Column {
  const char* name;
  std::string (*cell)(const SimResult&);
};

std::string audit_cell(const SimResult& r) {
  if (r.audit_ok) return "ok";
  std::set<std::string> kinds(r.audit_violations.begin(), r.audit_violations.end());
  return fmt::format("{}", fmt::join(kinds, "+"));
}

const std::vector<Column>& columns() {
  static const std::vector<Column> kColumns{
      {"strategy", [](const SimResult& r) { return r.strategy; }},
      {"pitfall",
       [](const SimResult& r) {
         return r.pitfall == Pitfall::kNone ? std::string("-")
                                            : std::string(pitfall_name(r.pitfall));
       }},
      {"requests", [](const SimResult& r) { return std::to_string(r.requests); }},
      {"moved_once", [](const SimResult& r) { return std::to_string(r.moved_once); }},
      {"moved_twice_or_more",
       [](const SimResult& r) { return std::to_string(r.moved_twice_or_more); }},
      {"not_moved", [](const SimResult& r) { return std::to_string(r.not_moved); }},
      {"never_moved", [](const SimResult& r) { return std::to_string(r.never_moved); }},
      {"stuck", [](const SimResult& r) { return std::to_string(r.stuck); }},
      {"unknown_to_client", [](const SimResult& r) { return std::to_string(r.unknown_to_client); }},
      {"refused", [](const SimResult& r) { return std::to_string(r.refused); }},
      {"gave_up", [](const SimResult& r) { return std::to_string(r.gave_up); }},
      {"inconsistent_answers",
       [](const SimResult& r) { return std::to_string(r.inconsistent_answers); }},
      {"attempts_per_request",
       [](const SimResult& r) { return fmt::format("{:.2f}", r.attempts_per_request); }},
      {"deliveries_per_request",
       [](const SimResult& r) { return fmt::format("{:.2f}", r.deliveries_per_request); }},
      {"statements_per_request",
       [](const SimResult& r) { return fmt::format("{:.2f}", r.statements_per_request); }},
      {"lock_waits", [](const SimResult& r) { return std::to_string(r.lock_waits); }},
      {"latency_ms_p50", [](const SimResult& r) { return std::to_string(r.latency_ms_p50); }},
      {"latency_ms_p99", [](const SimResult& r) { return std::to_string(r.latency_ms_p99); }},
      {"audit", audit_cell},
      {"seed", [](const SimResult& r) { return std::to_string(r.seed); }},
  };
  return kColumns;
}

// The columns of `results`: compare --backend's rows add where each ran, after the pitfall.
std::vector<Column> columns_for(const std::vector<SimResult>& results) {
  std::vector<Column> out = columns();
  if (has_backends(results))
    out.insert(out.begin() + 2, {{"backend", [](const SimResult& r) { return r.backend; }},
                                 {"isolation", [](const SimResult& r) { return r.isolation; }}});
  return out;
}

// Short headers for the table people read in a terminal.
const char* short_header(std::string_view name) {
  static const std::pair<std::string_view, const char*> kShort[] = {
      {"moved_once", "once"},
      {"moved_twice_or_more", "twice+"},
      {"not_moved", "none"},
      {"never_moved", "lied"},
      {"unknown_to_client", "unknown"},
      {"inconsistent_answers", "inconsistent"},
      {"attempts_per_request", "attempts/req"},
      {"deliveries_per_request", "delivered/req"},
      {"statements_per_request", "stmts/req"},
      {"latency_ms_p50", "p50_ms"},
      {"latency_ms_p99", "p99_ms"}};
  for (const auto& [long_name, short_name] : kShort)
    if (long_name == name) return short_name;
  return nullptr;
}

// The full table: every column, short headers (compare --wide).
std::string wide_table(const std::vector<SimResult>& results) {
  TextTable table;
  std::vector<Column> cols = columns();
  if (has_backends(results))
    cols.insert(cols.begin() + 2, {"engine", [](const SimResult& r) { return engine_label(r); }});
  auto shown = [](const Column& col) {
    return std::string_view(col.name) != "seed" && std::string_view(col.name) != "requests";
  };
  for (const auto& col : cols) {
    if (!shown(col)) continue;
    const char* header = short_header(col.name);
    table.header.push_back(header ? header : col.name);
    const std::string_view name = col.name;
    table.right_aligned.push_back(name != "strategy" && name != "audit" && name != "engine");
  }
  for (const auto& r : results) {
    std::vector<std::string> row;
    for (const auto& col : cols)
      if (shown(col)) row.push_back(col.cell(r));
    table.rows.push_back(std::move(row));
  }
  return table.render();
}

// What a run's topology did: failovers, a cluster's certification, a broker's window.
void add_topology_json(const SimResult& r, nlohmann::ordered_json* out) {
  if (r.failovers > 0) {  // a failover fault, on a strategy that keeps tokens or locks apart
    (*out)["failovers"] = r.failovers;
    (*out)["guard_writes_lost"] = r.guard_writes_lost;
  }
  if (r.galera_nodes > 0) {  // ledger=galera: the simulator's cluster
    (*out)["galera_nodes"] = r.galera_nodes;
    (*out)["certification_failures"] = r.certification_failures;
  }
  if (r.queue_window_ms > 0) {  // queue=jetstream: the broker's duplicate window
    (*out)["duplicate_window_ms"] = r.queue_window_ms;
    (*out)["dropped_by_broker"] = r.dropped_by_broker;
  }
  if (r.ledger_failovers > 0 || r.promotions_refused > 0) {  // of=ledger|both
    (*out)["ledger_failovers"] = r.ledger_failovers;
    (*out)["commits_lost"] = r.commits_lost;
    (*out)["transactions_cut"] = r.transactions_cut;
    if (r.promotions_refused > 0) (*out)["promotions_refused"] = r.promotions_refused;
  }
}

}  // namespace

nlohmann::ordered_json result_json(const SimResult& r) {
  std::set<std::string> kinds(r.audit_violations.begin(), r.audit_violations.end());
  nlohmann::ordered_json out = {
      {"strategy", r.strategy},
      {"pitfall", pitfall_json(r.pitfall)},
      {"requests", r.requests},
      {"moved_once", r.moved_once},
      {"moved_twice_or_more", r.moved_twice_or_more},
      {"not_moved", r.not_moved},
      {"never_moved", r.never_moved},
      {"stuck", r.stuck},
      {"unknown_to_client", r.unknown_to_client},
      {"refused", r.refused},
      {"gave_up", r.gave_up},
      {"inconsistent_answers", r.inconsistent_answers},
      {"attempts_per_request", std::round(r.attempts_per_request * 100) / 100},
      {"deliveries_per_request", std::round(r.deliveries_per_request * 100) / 100},
      {"statements_per_request", std::round(r.statements_per_request * 100) / 100},
      {"lock_waits", r.lock_waits},
      {"latency_ms_p50", r.latency_ms_p50},
      {"latency_ms_p99", r.latency_ms_p99},
      {"virtual_ms", r.virtual_ms},
      {"audit_ok", r.audit_ok},
      {"audit_violations", kinds},
      {"seed", r.seed}};
  if (!r.backend.empty()) {  // compare --backend: where each row ran
    out["backend"] = r.backend;
    out["engine"] = engine_name(r.engine);
    out["isolation"] = r.isolation;
  }
  if (r.nodes > 1) out["nodes"] = r.nodes;  // a Galera cluster's, each client on the next
  if (is_server(r.engine)) {                // on a server: where, at which level, and its races
    out["engine"] = engine_name(r.engine);
    out["isolation"] = r.isolation;
    out["released_together"] = r.released_together;
    if (r.relinks > 0) {  // the servers moved under the run
      out["links_lost"] = r.links_lost;
      out["relinks"] = r.relinks;
    }
  }
  if (!r.guard_store.empty()) out["redis"] = r.guard_store;  // --redis: where tokens and locks were
  if (r.guard_links_lost > 0) out["guard_links_lost"] = r.guard_links_lost;  // Redis failed over
  add_topology_json(r, &out);
  return out;
}

std::string results_view(const std::vector<SimResult>& results, Format format,
                         const nlohmann::ordered_json& extra, bool wide) {
  const std::vector<Column> cols = columns_for(results);
  switch (format) {
    case Format::kJson: {
      nlohmann::ordered_json out{{"rows", nlohmann::ordered_json::array()}};
      for (const auto& r : results) out["rows"].push_back(result_json(r));
      for (const auto& [key, value] : extra.items()) out[key] = value;
      return json_text(out) + "\n";
    }
    case Format::kCsv: {
      std::string out;
      for (size_t c = 0; c < cols.size(); ++c) out += (c ? "," : "") + std::string(cols[c].name);
      out += '\n';
      for (const auto& r : results) {
        for (size_t c = 0; c < cols.size(); ++c) out += (c ? "," : "") + cols[c].cell(r);
        out += '\n';
      }
      return out;
    }
    case Format::kMarkdown: {
      std::string out = "|", rule = "|";
      for (const auto& col : cols) {
        out += fmt::format(" {} |", col.name);
        rule += " --- |";
      }
      out += "\n" + rule + "\n";
      for (const auto& r : results) {
        out += "|";
        for (const auto& col : cols) out += fmt::format(" {} |", col.cell(r));
        out += "\n";
      }
      return out;
    }
    case Format::kTable:
      return wide ? wide_table(results) : compact_table(results);
    case Format::kMermaid:
    case Format::kSvg:
      break;  // a diagram of one timeline: see report/mermaid.h and report/svg.h
  }
  return "";
}

// The lines of a run on a replicated store or a cluster: failovers, certification.
template <class Line>
void replication_lines(const SimResult& r, Line& line) {
  if (r.failovers > 0)
    line("failovers", std::to_string(r.failovers),
         fmt::format("the guard store's replica took over; {} writes it had not received were "
                     "lost",
                     r.guard_writes_lost)
             .c_str());
  if (r.galera_nodes > 0)
    line("certification_failures", std::to_string(r.certification_failures),
         fmt::format("commits the simulated cluster of {} nodes refused (1213, answered busy)",
                     r.galera_nodes)
             .c_str());
  if (r.queue_window_ms > 0)
    line("dropped_by_broker", std::to_string(r.dropped_by_broker),
         fmt::format("republished copies the queue dropped inside its {} ms duplicate window",
                     r.queue_window_ms)
             .c_str());
  if (r.relinks > 0)
    line("links_lost", std::to_string(r.links_lost),
         fmt::format("attempts whose connection the servers cut (a failover, a node gone), each "
                     "ending with no answer; the run connected again {} through the topology",
                     r.relinks == 1 ? std::string("once") : fmt::format("{} times", r.relinks))
             .c_str());
  if (r.guard_links_lost > 0)
    line("guard_links_lost", std::to_string(r.guard_links_lost),
         "guard commands that met a lost link (a failover behind the Sentinels?), each costing "
         "its attempt its answer; the guard store connected again through the topology");
  if (r.ledger_failovers > 0)
    line("ledger_failovers", std::to_string(r.ledger_failovers),
         fmt::format("the ledger's standby took over; {} it had not received {} lost, {} under "
                     "way died",
                     count_of(r.commits_lost, "commit"), r.commits_lost == 1 ? "was" : "were",
                     count_of(r.transactions_cut, "transaction"))
             .c_str());
  if (r.promotions_refused > 0)
    line("promotions_refused", std::to_string(r.promotions_refused),
         "failovers that promoted nobody: the standby was further behind than max-lag-ms, so "
         "the old primary came back with every commit");
}

std::string result_text(const SimResult& r, const std::string& command) {
  std::string out = wrap(
      fmt::format("{}{}: {}, seed {}{}{}", r.strategy, pitfall_argument(r.pitfall),
                  count_of(r.requests, "request"), r.seed,
                  is_server(r.engine) ? fmt::format(", on {} at {}", engine_shown(r), r.isolation)
                                      : std::string(),
                  r.guard_store.empty() ? "" : ", tokens and locks in Redis"),
      0);
  // Label, value, meaning: a meaning too long for the width wraps under itself.
  auto line = [&](const char* label, const std::string& value, const char* meaning) {
    const std::string start = fmt::format("  {:<24}{:>10}  ", label, value);
    if (start.size() + 20 > output_width()) {  // a long value (the audit's findings)
      out += wrap(fmt::format("{} {}", label, value), 2) + wrap(meaning, 4);
      return;
    }
    const std::string wrapped = wrap(meaning, start.size());
    out += start + (wrapped.empty() ? "\n" : wrapped.substr(start.size()));
  };
  line("moved_once", std::to_string(r.moved_once), "the journal shows exactly one transfer");
  line("moved_twice_or_more", std::to_string(r.moved_twice_or_more), "money moved more than once");
  line("not_moved", std::to_string(r.not_moved), "no money moved");
  line("never_moved", std::to_string(r.never_moved), "told it succeeded, yet no money moved");
  line("stuck", std::to_string(r.stuck), "not moved; every retry answered in_progress");
  line("unknown_to_client", std::to_string(r.unknown_to_client), "moved, but the client gave up");
  line("refused", std::to_string(r.refused), "not moved; a definitive refusal");
  line("gave_up", std::to_string(r.gave_up), "not moved; the client gave up with no final answer");
  line("inconsistent_answers", std::to_string(r.inconsistent_answers),
       "answers to one request disagree");
  line("attempts_per_request", fmt::format("{:.2f}", r.attempts_per_request),
       "attempts each client sent");
  line("deliveries_per_request", fmt::format("{:.2f}", r.deliveries_per_request),
       "copies that reached the server");
  line("statements_per_request", fmt::format("{:.2f}", r.statements_per_request),
       "statements the ledger ran per request");
  line("lock_waits", std::to_string(r.lock_waits),
       is_server(r.engine) ? "statements that waited for a lock, on the server's word"
                           : "statements that waited for the write lock");
  if (is_server(r.engine))
    line("released_together", std::to_string(r.released_together),
         "steps that let 2 or more waiting statements go: which goes first is the server's, "
         "and a rerun can differ");
  replication_lines(r, line);
  line("latency_ms_p50", std::to_string(r.latency_ms_p50), "virtual time to a final answer");
  line("latency_ms_p99", std::to_string(r.latency_ms_p99), "by nearest rank");
  line("audit", audit_cell(r), "idemlab audit on the simulated ledger");
  return out + reproduce_text(command);
}

std::string reproduce_text(const std::string& command) {
  const std::string note = hidden_password_note(command);
  return command_text("reproduce: " + command) + (note.empty() ? "" : wrap(note, 0));
}

}  // namespace idemlab
