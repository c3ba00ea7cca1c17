// Mermaid's sequenceDiagram syntax: "A->>B: text" an arrow, "A-xB: text" a lost one, "Note over
// A: text", "activate A" / "deactivate A" a bar on A's lifeline.
#include "report/mermaid.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace idemlab {

namespace {

// Message text: Mermaid reads '#' and ';' as entity syntax and a newline as the end.
std::string escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '#')
      out += "#35;";
    else if (c == ';')
      out += "#59;";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string who(const TimelineEvent& e) {
  std::string label = fmt::format("r{}#{}", e.request, e.attempt);
  if (e.copy) label += fmt::format(".{}", e.copy);
  return label;
}

class Diagram {
 public:
  explicit Diagram(const std::vector<TimelineEvent>& events) {
    for (const auto& e : events)
      if (e.actor == "server" && e.attempt > 0) server(e);
  }

  std::string render(const std::vector<TimelineEvent>& events, std::string_view title,
                     std::string_view verdict) {
    std::string out = "sequenceDiagram\n";
    if (!title.empty()) out += fmt::format("    title {}\n", escaped(title));
    out += "    participant C as client\n    participant N as network\n";
    for (const auto& [key, id] : servers_)
      out += fmt::format("    participant {} as server {}\n", id, escaped(labels_[id]));
    out += "    participant L as ledger\n";
    for (size_t i = 0; i < events.size(); ++i) {
      // An answer the network then loses is drawn once, as the lost arrow.
      const bool lost_next = i + 1 < events.size() && events[i + 1].what == "response lost";
      if (events[i].actor == "server" && events[i].what == "answer" && lost_next) {
        lost_answer_ = events[i].result;
        continue;
      }
      out += line(events[i]);
    }
    for (const auto& id : active_) out += fmt::format("    deactivate {}\n", id);
    if (!verdict.empty()) out += fmt::format("    Note over C,L: {}\n", escaped(verdict));
    return out;
  }

 private:
  const std::string& server(const TimelineEvent& e) {
    const auto key = std::make_pair(e.attempt, e.copy);
    auto found = servers_.find(key);
    if (found != servers_.end()) return found->second;
    const std::string id = fmt::format("S{}", servers_.size() + 1);
    labels_[id] = who(e);
    return servers_[key] = id;
  }

  std::string line(const TimelineEvent& e);
  std::string server_line(const TimelineEvent& e);

  std::map<std::pair<int, int>, std::string> servers_;
  std::map<std::string, std::string> labels_;
  std::vector<std::string> active_;
  std::string lost_answer_;  // the answer the next "response lost" event carries
};

std::string Diagram::line(const TimelineEvent& e) {
  const std::string at = fmt::format("{} ms ", e.at_ms);
  const std::string fault = e.fault.empty() ? "" : fmt::format(" [{}]", e.fault);
  if (e.actor == "client" && e.what == "send")
    return fmt::format("    C->>N: {}{} {}{}\n", at, escaped(who(e)), escaped(e.result), fault);
  if (e.actor == "client" && e.what == "answer")
    return fmt::format("    N->>C: {}{} {}\n", at, escaped(who(e)), escaped(e.result));
  if (e.actor == "client")
    return fmt::format("    Note over C: {}{} {}{}\n", at, escaped(e.what), escaped(e.result),
                       fault);
  if (e.actor == "network" && e.what == "request lost")
    return fmt::format("    C-xN: {}{} request lost{}\n", at, escaped(who(e)), fault);
  if (e.actor == "network" && e.what == "response lost")
    return fmt::format("    {}-xN: {}{} (lost){}\n", server(e), at,
                       escaped(std::exchange(lost_answer_, "answer")), fault);
  if (e.actor == "network")
    return fmt::format("    N->>{}: {}{}\n", server(e), at, escaped(e.what));
  return server_line(e);
}

std::string Diagram::server_line(const TimelineEvent& e) {
  const std::string& id = server(e);
  const std::string at = fmt::format("{} ms ", e.at_ms);
  const std::string fault = e.fault.empty() ? "" : fmt::format(" [{}]", e.fault);
  std::string out;
  if (e.what == "answer") return fmt::format("    {}->>N: {}{}\n", id, at, escaped(e.result));
  if (e.what == "pause" || e.what == "crash" || e.what == "another writer") {
    out = fmt::format("    Note over {}: {}{} {}{}\n", id, at, e.what, escaped(e.result), fault);
    auto held = std::find(active_.begin(), active_.end(), id);
    if (e.what == "crash" && held != active_.end()) {  // its transaction is rolled back
      out += fmt::format("    deactivate {}\n", id);
      active_.erase(held);
    }
    return out;
  }
  out += fmt::format("    {}->>L: {}{}: {}{}\n", id, at, escaped(e.what), escaped(e.result), fault);
  if (e.result == "write lock taken") {
    out += fmt::format("    activate {}\n", id);
    active_.push_back(id);
  }
  const bool ends = e.result == "committed" || e.result == "rolled back";
  auto held = std::find(active_.begin(), active_.end(), id);
  if (ends && held != active_.end()) {
    out += fmt::format("    deactivate {}\n", id);
    active_.erase(held);
  }
  if (e.result.find("money moved") != std::string::npos)
    out += fmt::format("    Note over L: money moved ({})\n", escaped(labels_[id]));
  return out;
}

}  // namespace

std::string mermaid_sequence(const std::vector<TimelineEvent>& events, std::string_view title,
                             std::string_view verdict) {
  Diagram diagram(events);
  return diagram.render(events, title, verdict);
}

}  // namespace idemlab
