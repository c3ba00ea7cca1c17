// FlowBacklog: the writes to flow rows that a lagging replica (lagging_replica.h) has received
// and that are due, kept by request instead of applied. A read there asks for one request's
// flow rows (by source and key), so a request's writes are applied, in commit order, when a
// read asks for them; once no read can ask (the request is settled: `Unread` says so), they
// are dropped unapplied. Most requests are never read there, and applying their writes was
// most of what the replica cost. A row keeps the primary's id (an insert is applied with it),
// so a write naming a flow by id finds its row whatever order the requests are applied in;
// that is also how a write naming a flow by id finds its request here. A write this cannot
// place (a flow with no key, a row it never saw inserted) is applied at once, as before.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "db/connection.h"
#include "sim/shared/write_set_log.h"

namespace idemlab {

class FlowBacklog {
 public:
  // Whether no read will ask for the flow rows of (source, biz_seq) again.
  using Unread = std::function<bool(std::string_view source, std::string_view biz_seq)>;

  // `fewest_swept`: how many requests it keeps before it first asks which are unread (and
  // again each time that doubles what it kept after the last asking).
  explicit FlowBacklog(size_t fewest_swept = 256)
      : fewest_swept_(fewest_swept), next_sweep_(fewest_swept) {}

  // Keeps `write` (due on the replica) if it is a flow write this can place; false: apply it
  // (with apply()) now.
  bool keep(LoggedWrite& write);
  // What is kept for the flow rows the read `stmt` with `binds` asks for, to apply in this
  // order and clear; null when nothing is.
  std::vector<LoggedWrite>* kept_for(Stmt stmt, const Binds& binds);
  // Applies `write` on `replica`: a new flow row with the id the primary gave it.
  static StepResult apply(Connection& replica, LoggedWrite& write);
  // From now on, drops what is kept for a request once `unread` says no read will ask for it.
  void forget_when(Unread unread) { unread_ = std::move(unread); }
  size_t requests() const { return by_request_.size(); }

 private:
  struct Request {
    std::string source, biz_seq;
    std::vector<LoggedWrite> writes;  // due, not applied, in commit order
    std::vector<int64_t> flows;       // the ids of its flow rows
  };
  Request* place(const LoggedWrite& write);
  void forget_unread();

  std::unordered_map<std::string, Request> by_request_;  // by source '\n' biz_seq
  std::unordered_map<int64_t, Request*> by_flow_;        // a flow row's id -> its request
  Unread unread_;
  size_t fewest_swept_;
  size_t next_sweep_;  // requests() at which forget_unread() next runs
};

}  // namespace idemlab
