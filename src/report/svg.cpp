// Layout: lifelines in columns, one row per message or note, in timeline order.
#include "report/svg.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/markup.h"
#include "report/sequence.h"
#include "term/color.h"

namespace idemlab {

namespace {

// Sized for a projected slide: a label is 12 px, and a diagram of about 30 rows is at most 584 px
// tall, the height the report shows it at (its style's max-height), so that it is not scaled down.
constexpr int kLane = 170;          // distance between lifelines
constexpr int kLeft = 20;           // margin before the first lifeline's box
constexpr int kTop = 32;            // where lifeline boxes start
constexpr int kBox = 26;            // a lifeline box's height
constexpr int kFirstRow = 82;       // y of the first message
constexpr int kRow = 15;            // one message or note per row
constexpr int kFoot = 34;           // below the last row: the verdict
constexpr double kCharWidth = 7.2;  // 12 px sans-serif, generous
constexpr int kWidest = 1160;       // a slide's width for a diagram, in the report at 1280 px

int lane_x(size_t lane) {
  return kLeft + 75 + kLane * static_cast<int>(lane);
}

int text_width(std::string_view text) {
  return static_cast<int>(static_cast<double>(visible_width(text)) * kCharWidth) + 12;
}

class Canvas {
 public:
  explicit Canvas(const Sequence& s) : s_(s), lanes_width_(lane_x(s.ids.size() - 1) + 95) {
    width_ = lanes_width_;
  }

  std::string render() {
    int row = 0;
    for (const SequenceItem& item : s_.items) row += draw(item, kFirstRow + row * kRow);
    const int bottom = kFirstRow + row * kRow;
    for (auto& [lane, start] : open_bars_) bar(lane, start, bottom - kRow / 2);
    if (!s_.verdict.empty()) width_ = std::max(width_, kLeft + text_width(s_.verdict) + 20);
    std::string out = header(bottom + kFoot) + body_;
    if (!s_.verdict.empty())
      out += fmt::format("<text class=\"verdict\" x=\"{}\" y=\"{}\">{}</text>\n", kLeft,
                         bottom + kFoot - 12, markup_text(s_.verdict));
    out += "</svg>\n";
    return out;
  }

 private:
  std::string header(int height) const {
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{1}\" height=\"{0}\" "
        "viewBox=\"0 0 {1} {0}\" font-family=\"DejaVu Sans, Verdana, sans-serif\" "
        "font-size=\"12\">\n"
        "<style>.box{{fill:#eef2f7;stroke:#44546a}} .life{{stroke:#9aa5b1;stroke-dasharray:4 4}} "
        ".msg{{stroke:#222;fill:none}} .lost{{stroke:#c0392b;fill:none}} "
        ".note{{fill:#fff4c2;stroke:#c9a227}} .money{{fill:#d4f5d4;stroke:#2e8b57}} "
        ".bar{{fill:#aac4e6;stroke:#44546a}} .verdict{{font-weight:bold;font-size:13px}} "
        ".title{{font-weight:bold;font-size:14px}} text{{fill:#222}}</style>\n"
        "<defs><marker id=\"head\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" "
        "orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#222\"/></marker></defs>\n"
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        height, width_);
    out += fmt::format("<text class=\"title\" x=\"{}\" y=\"{}\">{}</text>\n", kLeft, kTop - 12,
                       markup_text(s_.title));
    for (size_t lane = 0; lane < s_.ids.size(); ++lane) {
      const int x = lane_x(lane);
      out += fmt::format(
          "<g class=\"lifeline\"><rect class=\"box\" x=\"{}\" y=\"{}\" width=\"150\" "
          "height=\"{}\" rx=\"4\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>"
          "<line class=\"life\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/></g>\n",
          x - 75, kTop, kBox, x, kTop + 17, markup_text(s_.labels[lane]), x, kTop + kBox, x,
          height - kFoot);
    }
    return out;
  }

  // Draws one item at row `y`; returns how many rows it took.
  int draw(const SequenceItem& item, int y) {
    using Kind = SequenceItem::Kind;
    switch (item.kind) {
      case Kind::kArrow:
      case Kind::kLost:
        arrow(item, y);
        return 1;
      case Kind::kNote:
      case Kind::kMoneyMoved:
        note(item, y);
        return 1;
      case Kind::kActivate:
        open_bars_.emplace_back(item.from, y - kRow / 2);
        return 0;
      case Kind::kDeactivate:
        close_bar(item.from, y - kRow / 2);
        return 0;
    }
    return 0;
  }

  void arrow(const SequenceItem& item, int y) {
    const int x1 = lane_x(item.from), x2 = lane_x(item.to);
    const int direction = x2 > x1 ? 1 : -1;
    // The label starts at the arrow's left end; one that would widen the diagram past what a
    // slide shows unscaled ends at that edge instead.
    const int w = text_width(item.text);
    const int edge = std::max(lanes_width_, kWidest) - 4;
    const int left = std::max(4, std::min(std::min(x1, x2) + 6, edge - w));
    width_ = std::max(width_, left + w);
    body_ +=
        fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", left, y - 4, markup_text(item.text));
    if (item.kind == SequenceItem::Kind::kArrow) {
      body_ += fmt::format(
          "<line class=\"msg arrow\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" "
          "marker-end=\"url(#head)\"/>\n",
          x1, y, x2 - direction * 2, y);
      return;
    }
    const int end = x1 + (x2 - x1) / 2;  // lost half way
    body_ += fmt::format(
        "<g class=\"lost arrow\"><line class=\"lost\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>"
        "<line class=\"lost\" x1=\"{3}\" y1=\"{4}\" x2=\"{5}\" y2=\"{6}\"/>"
        "<line class=\"lost\" x1=\"{3}\" y1=\"{6}\" x2=\"{5}\" y2=\"{4}\"/></g>\n",
        x1, y, end, end - 6, y - 6, end + 6, y + 6);
  }

  void note(const SequenceItem& item, int y) {
    const int x = lane_x(item.from);
    const int w = text_width(item.text);
    const int left = std::max(4, x - w / 2);
    width_ = std::max(width_, left + w + 10);
    const char* kind = item.kind == SequenceItem::Kind::kMoneyMoved ? "money" : "note";
    body_ += fmt::format(
        "<g class=\"{0}\"><rect class=\"{0}\" x=\"{1}\" y=\"{2}\" width=\"{3}\" height=\"14\" "
        "rx=\"3\"/><text x=\"{4}\" y=\"{5}\">{6}</text></g>\n",
        kind, left, y - 11, w, left + 6, y - 1, markup_text(item.text));
  }

  void close_bar(size_t lane, int end) {
    auto open = std::find_if(open_bars_.begin(), open_bars_.end(),
                             [&](const auto& bar) { return bar.first == lane; });
    if (open == open_bars_.end()) return;
    bar(lane, open->second, end);
    open_bars_.erase(open);
  }

  void bar(size_t lane, int start, int end) {
    body_ += fmt::format(
        "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"10\" height=\"{}\"><title>holds the write "
        "lock</title></rect>\n",
        lane_x(lane) - 5, start, std::max(4, end - start));
  }

  const Sequence& s_;
  const int lanes_width_;  // as wide as the lifelines need
  int width_ = 0;
  std::string body_;
  std::vector<std::pair<size_t, int>> open_bars_;  // lane, y where its bar starts
};

}  // namespace

std::string svg_sequence(const std::vector<TimelineEvent>& events, std::string_view title,
                         std::string_view verdict) {
  const Sequence sequence = build_sequence(events, title, verdict);
  return Canvas(sequence).render();
}

}  // namespace idemlab
