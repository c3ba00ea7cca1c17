// Events to lifelines: the client and network are fixed, each server attempt (with its copy)
// gets its own lifeline in order of appearance, the ledger is last.
#include "report/sequence.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>

#include "attempt/trace.h"

namespace idemlab {

namespace {

constexpr size_t kClient = 0;
constexpr size_t kNetwork = 1;

std::string who(const TimelineEvent& e) {
  std::string label = fmt::format("r{}#{}", e.request, e.attempt);
  if (e.copy) label += fmt::format(".{}", e.copy);
  return label;
}

class Builder {
 public:
  Builder(const std::vector<TimelineEvent>& events, std::string_view title,
          std::string_view verdict) {
    out_.title = title;
    out_.verdict = verdict;
    out_.ids = {"C", "N"};
    out_.labels = {"client", "network"};
    for (const auto& e : events)
      if (e.actor == "server" && e.attempt > 0) server(e);
    ledger_ = out_.ids.size();
    out_.ids.push_back("L");
    out_.labels.push_back("ledger");
  }

  Sequence build(const std::vector<TimelineEvent>& events) {
    for (size_t i = 0; i < events.size(); ++i) {
      // An answer the network then loses is drawn once, as the lost arrow.
      const bool lost_next = i + 1 < events.size() && events[i + 1].what == "response lost";
      if (events[i].actor == "server" && events[i].what == "answer" && lost_next) {
        lost_answer_ = events[i].result;
        continue;
      }
      add(events[i]);
    }
    for (size_t lifeline : active_) item(SequenceItem::Kind::kDeactivate, lifeline, lifeline, "");
    return std::move(out_);
  }

 private:
  size_t server(const TimelineEvent& e) {
    const auto key = std::make_pair(e.attempt, e.copy);
    auto found = servers_.find(key);
    if (found != servers_.end()) return found->second;
    out_.ids.push_back(fmt::format("S{}", servers_.size() + 1));
    out_.labels.push_back("server " + who(e));
    return servers_[key] = out_.ids.size() - 1;
  }
  // "r1#2" for a server lifeline labelled "server r1#2".
  std::string who_of(size_t lifeline) const {
    const std::string& label = out_.labels[lifeline];
    return label.substr(label.find(' ') + 1);
  }
  void item(SequenceItem::Kind kind, size_t from, size_t to, std::string text) {
    out_.items.push_back({kind, from, to, std::move(text)});
  }
  void add(const TimelineEvent& e);
  void add_server(const TimelineEvent& e);
  void release(size_t lifeline) {
    auto held = std::find(active_.begin(), active_.end(), lifeline);
    if (held == active_.end()) return;
    item(SequenceItem::Kind::kDeactivate, lifeline, lifeline, "");
    active_.erase(held);
  }

  void track_lock(const TimelineEvent& e, size_t id);

  Sequence out_;
  size_t ledger_ = 0;
  // The lock row's holder (a lifeline) and when its lock lapses, to mark the moment a twin
  // takes over a lock that expired under its holder.
  std::optional<size_t> lock_holder_;
  int64_t lock_until_ms_ = 0;
  std::map<std::pair<int, int>, size_t> servers_;
  std::vector<size_t> active_;
  std::string lost_answer_;  // the answer the next "response lost" event carries
};

void Builder::add(const TimelineEvent& e) {
  using Kind = SequenceItem::Kind;
  const std::string at = fmt::format("{} ms ", e.at_ms);
  const std::string fault = e.fault.empty() ? "" : fmt::format(" [{}]", e.fault);
  if (e.actor == "client" && e.what == "send")
    return item(Kind::kArrow, kClient, kNetwork, at + who(e) + " " + e.result + fault);
  if (e.actor == "client" && e.what == "answer")
    return item(Kind::kArrow, kNetwork, kClient, at + who(e) + " " + e.result);
  if (e.actor == "client")
    return item(Kind::kNote, kClient, kClient, at + e.what + " " + e.result + fault);
  if (e.actor == "network" && e.what == "request lost")
    return item(Kind::kLost, kClient, kNetwork, at + who(e) + " request lost" + fault);
  if (e.actor == "network" && e.what == "response lost")
    return item(Kind::kLost, server(e), kNetwork,
                at + std::exchange(lost_answer_, "answer") + " (lost)" + fault);
  if (e.actor == "network") return item(Kind::kArrow, kNetwork, server(e), at + e.what);
  add_server(e);
}

void Builder::add_server(const TimelineEvent& e) {
  using Kind = SequenceItem::Kind;
  const size_t id = server(e);
  const std::string at = fmt::format("{} ms ", e.at_ms);
  const std::string fault = e.fault.empty() ? "" : fmt::format(" [{}]", e.fault);
  if (e.what == "answer") return item(Kind::kArrow, id, kNetwork, at + e.result);
  if (e.what == "pause" || e.what == "crash" || e.what == "another writer" ||
      e.what == "failover") {
    item(Kind::kNote, id, id, at + e.what + " " + e.result + fault);
    if (e.what == "crash") release(id);  // its transaction is rolled back
    return;
  }
  // On a server, a statement that waits for another attempt's lock: a note where it waits,
  // then its answer with how the wait ended.
  if (!e.detail.empty() && e.result.empty())
    return item(Kind::kNote, id, id, at + e.what + ": " + e.detail);
  const std::string ended = e.detail.empty() ? "" : " (" + e.detail + ")";
  item(Kind::kArrow, id, ledger_, at + e.what + ": " + e.result + ended + fault);
  if (e.result == "write lock taken") {
    item(Kind::kActivate, id, id, "");
    active_.push_back(id);
  }
  if (e.result == "committed" || e.result == "rolled back") release(id);
  track_lock(e, id);
  if (e.result.find("money moved") != std::string::npos)
    item(Kind::kMoneyMoved, ledger_, ledger_,
         "money moved (" + out_.labels[id].substr(out_.labels[id].find(' ') + 1) + ")");
}

void Builder::track_lock(const TimelineEvent& e, size_t id) {
  constexpr std::string_view kHeld = "lock held by ";
  if (e.result.starts_with("lock released")) lock_holder_.reset();
  if (!e.result.starts_with(kHeld)) return;
  const size_t until = e.result.find(" until ");
  const int64_t until_ms = until == std::string::npos ? 0 : std::atoll(&e.result[until + 7]);
  if (lock_holder_ && *lock_holder_ != id)
    item(SequenceItem::Kind::kNote, ledger_, ledger_,
         fmt::format("the lock of {} expired at {} ms; {} takes it", who_of(*lock_holder_),
                     lock_until_ms_, who_of(id)));
  lock_holder_ = id;
  lock_until_ms_ = until_ms;
}

}  // namespace

Sequence build_sequence(const std::vector<TimelineEvent>& events, std::string_view title,
                        std::string_view verdict) {
  return Builder(events, title, verdict).build(events);
}

std::vector<TimelineEvent> rehearsal_timeline(const std::vector<TracedAttempt>& attempts) {
  std::vector<TimelineEvent> events;
  int64_t at = 0;
  for (size_t i = 0; i < attempts.size(); ++i) {
    const int attempt = static_cast<int>(i) + 1;
    events.push_back({at, "client", 1, attempt, 0, "send", "", attempts[i].label, "", ""});
    events.push_back({at++, "network", 1, attempt, 0, "delivered", "", "", "", ""});
    for (const TracedStep& step : attempts[i].steps)
      events.push_back({at++, "server", 1, attempt, 0, step.step, "", step.values, step.sql, ""});
    std::string said(outcome_name(attempts[i].answer.outcome));
    if (attempts[i].answer.replayed) said += " (replayed)";
    events.push_back({at, "server", 1, attempt, 0, "answer", "", said, "", ""});
    events.push_back({at++, "client", 1, attempt, 0, "answer", "", said, "", ""});
  }
  return events;
}

}  // namespace idemlab
