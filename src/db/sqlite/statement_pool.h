// StatementPool: a few connections to one SQLite database shared by many: each statement of a
// pooled connection borrows one, the one given back last, and an open transaction keeps it
// until it ends. What a statement sees and takes is what it would on a connection of its own
// (in WAL mode a statement outside a transaction reads the latest commit on any connection,
// and a transaction's statements all run on one), but far fewer caches go stale: SQLite drops
// a connection's whole page cache when it begins to read after another connection committed,
// and the connection given back last has seen every commit. The simulator's attempts (one
// pooled connection each) ran their statements on 8 connections of their own, and the same
// statements ran a fifth slower than on one connection; lent this way, as fast.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/connection.h"

namespace idemlab {

class StatementPool {
 public:
  // `open` makes each connection the pool lends (and may watch it: undo_log.h); the first is
  // made now.
  using Open = std::function<Result<Connection>()>;
  static Result<std::unique_ptr<StatementPool>> create(Open open);

  // A connection whose statements run on the pool's. The pool outlives it.
  Connection connect();
  // The connections made so far.
  size_t opened() const { return all_.size(); }

 private:
  friend class PooledBackend;
  explicit StatementPool(Open open) : open_(std::move(open)) {}
  // The connection given back last, or a new one when every one is lent.
  Result<Connection*> borrow();
  void give_back(Connection* connection) { free_.push_back(connection); }

  Open open_;
  std::vector<std::unique_ptr<Connection>> all_;
  std::vector<Connection*> free_;  // the last given back on top
};

}  // namespace idemlab
