// ReadBacklog: the due writes a lagging replica (lagging_replica.h) keeps, instead of applying
// them, until a read asks for their rows. A read there asks for one request's flow rows (by
// source and key) or one dedup record (by its key), so the writes to those rows wait together,
// in commit order, and are applied when such a read comes; once no read can ask (every request
// that could is settled: `Unread` says so), they are dropped unapplied. Most requests are never
// read there, and applying their writes was most of what the replica cost. A flow row keeps
// the primary's id (an insert is applied with it), so a write naming a flow by id finds its
// row whatever order the requests are applied in, and finds its request here through it. A
// write this cannot place (a flow with no key, a row it never saw written, a dedup key it
// cannot trace to the requests that could read it, a token) is applied at once, as before.
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

class ReadBacklog {
 public:
  // Whether no read will ask again for the rows request (source, biz_seq) wrote; with
  // `any_source`, those of every request numbered `biz_seq`, whatever its source, asking too.
  using Unread =
      std::function<bool(std::string_view source, std::string_view biz_seq, bool any_source)>;

  // `fewest_swept`: how many rows' writes it keeps before it first asks which are unread (and
  // again each time that doubles what it kept after the last asking).
  explicit ReadBacklog(size_t fewest_swept = 256)
      : fewest_swept_(fewest_swept), next_sweep_(fewest_swept) {}

  // Keeps `write` (due on the replica) if this can place it; false: apply it (apply()) now.
  bool keep(LoggedWrite& write);
  // What is kept for the rows the read `stmt` with `binds` asks for, to apply in this order
  // and clear; null when nothing is.
  std::vector<LoggedWrite>* kept_for(Stmt stmt, const Binds& binds);
  // Applies `write` on `replica`: a new flow row with the id the primary gave it.
  static StepResult apply(Connection& replica, LoggedWrite& write);
  // From now on, drops what is kept for rows once `unread` says no read will ask for them.
  void forget_when(Unread unread) { unread_ = std::move(unread); }
  // How many requests' flow rows and dedup records it keeps writes, or ids, for.
  size_t kept() const { return by_rows_.size(); }

 private:
  struct Rows {
    std::string source, biz_seq;      // the request that wrote them
    bool any_source = false;          // a dedup record: any request with that biz_seq reads it
    std::vector<LoggedWrite> writes;  // due, not applied, in commit order
    std::vector<int64_t> flows;       // the ids of its flow rows
  };
  Rows* place(const LoggedWrite& write);
  Rows* place_dedup(const LoggedWrite& write);
  void forget_unread();

  // By what a read names: "f" source '\n' biz_seq (a request's flows), "d" key (a record).
  std::unordered_map<std::string, Rows> by_rows_;
  std::unordered_map<int64_t, Rows*> by_flow_;  // a flow row's id -> its request's flows
  Unread unread_;
  size_t fewest_swept_;
  size_t next_sweep_;  // kept() at which forget_unread() next runs
};

}  // namespace idemlab
