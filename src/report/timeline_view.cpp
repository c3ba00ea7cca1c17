// The narrated timeline (timeline_view.h).
#include "report/timeline_view.h"

#include <fmt/format.h>

#include <algorithm>

#include "term/color.h"
#include "term/text.h"
#include "term/width.h"

namespace idemlab {

std::string timeline_legend(TimelineOf of) {
  const char* who =
      of == TimelineOf::kTwins
          ? "r1#1 and r1#2 are the twins: request 1 sent twice at once, each an attempt of its "
            "own (a double-click, or a client and its retry)"
          : "r3#2 is request 3's second attempt, r3#2.1 its second copy (a double submit or a "
            "redelivery)";
  return wrap(fmt::format("Timeline: virtual ms, who acts (client, network, server), and which "
                          "request: {}. A server line is a statement and the values that "
                          "decided it; [fault: ...] marks where a fault hit. --sql adds each "
                          "statement's SQL.",
                          who),
              0);
}

std::string timeline_text(const std::vector<TimelineEvent>& events, bool show_sql) {
  std::string out;
  for (const auto& e : events) {
    std::string who = e.attempt   ? fmt::format("r{}#{}", e.request, e.attempt)
                      : e.request ? fmt::format("r{}", e.request)
                                  : std::string();  // the whole run's
    if (e.copy) who += fmt::format(".{}", e.copy);
    const std::string head =
        fmt::format("{:>7} ms {:<7} {:<8} {:<21} ", e.at_ms, e.actor, who, e.what);
    std::string said = paint_outcome(e.result);
    if (!e.detail.empty()) said += (said.empty() ? "" : ": ") + e.detail;
    if (!e.fault.empty()) said += fmt::format("  [fault: {}]", e.fault);
    // The values wrap under their column (or below the line, on a narrow screen); the SQL,
    // when asked for, under the step.
    const size_t indent = std::min(head.size(), output_width() - 20);
    const std::string body = said.empty() ? "\n" : wrap(said, indent);
    if (said.empty())
      out += head.substr(0, head.find_last_not_of(' ') + 1) + "\n";
    else if (indent == head.size())
      out += head + body.substr(indent);
    else
      out += head + "\n" + body;
    if (show_sql && !e.sql.empty()) out += wrap(e.sql, 21);
  }
  return out;
}

nlohmann::ordered_json timeline_json(const std::vector<TimelineEvent>& events) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& e : events)
    out.push_back({{"at_ms", e.at_ms},
                   {"actor", e.actor},
                   {"request", e.request},
                   {"attempt", e.attempt},
                   {"copy", e.copy},
                   {"what", e.what},
                   {"detail", e.detail},
                   {"result", e.result},
                   {"sql", e.sql},
                   {"fault", e.fault}});
  return out;
}

}  // namespace idemlab
