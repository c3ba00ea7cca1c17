// Writer turns: connections of one process waiting for SQLite's one write lock are woken when
// another of its connections ends a transaction, instead of sleeping on SQLite's busy timer
// (1, 2, 5, 10 ... 100 ms a try), which left the lock idle between a commit and the next try.
// A lock held by another process ends unseen: then a waiter looks again every 10 ms. Used by
// the connections of serve's pool (ConnectionOptions::wait_in_process).
#pragma once

#include <chrono>
#include <cstdint>

namespace idemlab {

class WriterTurn {
 public:
  explicit WriterTurn(int timeout_ms) : timeout_(timeout_ms) {}

  // Before a statement runs: a transaction that ends from now on wakes this connection.
  void before_statement();
  // SQLite's busy handler (sqlite3_busy_handler): 1 to try the lock again, 0 to give up (the
  // statement then fails SQLITE_BUSY) once the timeout has passed.
  static int on_busy(void* turn, int tries);
  // A connection of this process ended a transaction: its lock is free.
  static void transaction_ended();

 private:
  std::chrono::milliseconds timeout_;
  std::chrono::steady_clock::time_point started_;
  uint64_t seen_ = 0;
};

}  // namespace idemlab
