// Mermaid's sequenceDiagram syntax: "A->>B: text" an arrow, "A-xB: text" a lost one, "Note over
// A: text", "activate A" / "deactivate A" a bar on A's lifeline.
#include "report/mermaid.h"

#include <fmt/format.h>

#include "report/sequence.h"

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

std::string item_line(const Sequence& s, const SequenceItem& item) {
  const std::string& from = s.ids[item.from];
  const std::string& to = s.ids[item.to];
  switch (item.kind) {
    case SequenceItem::Kind::kArrow:
      return fmt::format("    {}->>{}: {}\n", from, to, escaped(item.text));
    case SequenceItem::Kind::kLost:
      return fmt::format("    {}-x{}: {}\n", from, to, escaped(item.text));
    case SequenceItem::Kind::kNote:
    case SequenceItem::Kind::kMoneyMoved:
      return fmt::format("    Note over {}: {}\n", from, escaped(item.text));
    case SequenceItem::Kind::kActivate:
      return fmt::format("    activate {}\n", from);
    case SequenceItem::Kind::kDeactivate:
      return fmt::format("    deactivate {}\n", from);
  }
  return "";
}

}  // namespace

std::string mermaid_sequence(const std::vector<TimelineEvent>& events, std::string_view title,
                             std::string_view verdict) {
  const Sequence s = build_sequence(events, title, verdict);
  std::string out = "sequenceDiagram\n";
  if (!s.title.empty()) out += fmt::format("    title {}\n", escaped(s.title));
  for (size_t i = 0; i < s.ids.size(); ++i)
    out += fmt::format("    participant {} as {}\n", s.ids[i], escaped(s.labels[i]));
  for (const SequenceItem& item : s.items) out += item_line(s, item);
  if (!s.verdict.empty()) out += fmt::format("    Note over C,L: {}\n", escaped(s.verdict));
  return out;
}

}  // namespace idemlab
