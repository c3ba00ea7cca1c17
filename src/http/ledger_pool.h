// LedgerPool: the ledger connections a server lends to the requests it serves at once, each
// with a guard store of its own when tokens and locks live in Redis (a hiredis connection
// serves one thread). Opened on first need, kept, and lent out one per request: on a database
// server requests run side by side; on a SQLite file they meet at its one writer and take it in
// turn (ConnectionOptions::wait_in_process). On a Galera cluster's URL that picks no node, each
// request is lent a connection to the next node in turn (one opened when none there is free;
// when all `size` are open and none on that node is free, one on any node).
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/limits.h"
#include "db/connection.h"
#include "db/guard_store.h"
#include "db/redis/redis_locator.h"
#include "db/zookeeper/zookeeper_locator.h"
#include "ledger/read_split.h"

namespace idemlab {

struct LedgerPoolOptions {
  std::string db;
  Isolation isolation = Isolation::kDefault;
  int busy_timeout_ms = defaults::kBusyTimeoutMs;
  std::optional<RedisLocator> redis;
  std::optional<ZooKeeperLocator> locks;  // lock-table's locks in ZooKeeper (--locks)
  std::string read_db;  // a PostgreSQL standby for the reads outside a write transaction
  bool read_your_writes = false;
  int size = 16;  // connections at most; a request beyond them waits for one
};

class LedgerPool {
 public:
  explicit LedgerPool(LedgerPoolOptions options);

  struct Slot {
    int node = 0;  // 1-based on a cluster the pool spreads over; else 0
    Connection ledger;
    std::unique_ptr<GuardStore> guards;  // nullptr: the ledger keeps them
    std::unique_ptr<ReadSplit> reads;    // nullptr: every read on the ledger

    // Where tokens are issued: Redis when the server keeps its guards there, else the ledger.
    StatementRunner& token_store() {
      return guards ? static_cast<StatementRunner&>(*guards)
                    : static_cast<StatementRunner&>(ledger);
    }
  };

  // A slot lent to one request, given back when it goes. A slot whose connection broke is
  // dropped instead, and the next request opens a new one.
  class Lease {
   public:
    Lease(LedgerPool* pool, std::unique_ptr<Slot> slot) : pool_(pool), slot_(std::move(slot)) {}
    Lease(Lease&& other) noexcept
        : pool_(std::exchange(other.pool_, nullptr)), slot_(std::move(other.slot_)) {}
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    Slot& operator*() { return *slot_; }
    Slot* operator->() { return slot_.get(); }
    void discard() { slot_.reset(); }  // its connection broke: do not lend it again

   private:
    LedgerPool* pool_;
    std::unique_ptr<Slot> slot_;
  };

  // A slot; waits while all are lent. Opening one can fail (a server full or gone). On a
  // cluster, a request takes the next node's turn; `takes_turn` false (serve's check of the
  // ledger before it listens) uses the node whose turn is next and leaves it next.
  Result<Lease> acquire(bool takes_turn = true);
  const LedgerPoolOptions& options() const { return options_; }

 private:
  void give_back(std::unique_ptr<Slot> slot);
  Result<std::unique_ptr<Slot>> open_slot(int node) const;
  std::unique_ptr<Slot> take_idle(int node);

  LedgerPoolOptions options_;
  int nodes_ = 0;          // the cluster's nodes the requests take in turn; 0: no cluster
  uint64_t requests_ = 0;  // lent so far: the next one's node
  std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<std::unique_ptr<Slot>> idle_;
  int lent_or_opening_ = 0;
};

}  // namespace idemlab
