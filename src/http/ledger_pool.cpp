// Lending ledger connections to requests.
#include "http/ledger_pool.h"

#include <algorithm>

#include "db/locator.h"
#include "db/redis/redis_store.h"
#include "db/schema/ledger_file.h"
#include "db/zookeeper/zookeeper_store.h"

namespace idemlab {

LedgerPool::Lease::~Lease() {
  if (pool_) pool_->give_back(std::move(slot_));
}

LedgerPool::LedgerPool(LedgerPoolOptions options)
    : options_(std::move(options)), nodes_(nodes_to_spread_over(options_.db)) {}

// An idle slot on `node` (0: any), the newest first; else, when the pool may open no more,
// any idle slot; else none.
std::unique_ptr<LedgerPool::Slot> LedgerPool::take_idle(int node) {
  auto found = std::find_if(idle_.rbegin(), idle_.rend(),
                            [&](const auto& slot) { return node == 0 || slot->node == node; });
  if (found == idle_.rend() && lent_or_opening_ >= options_.size) found = idle_.rbegin();
  if (found == idle_.rend()) return nullptr;
  std::unique_ptr<Slot> slot = std::move(*found);
  idle_.erase(std::next(found).base());
  return slot;
}

Result<LedgerPool::Lease> LedgerPool::acquire(bool takes_turn) {
  int node = 0;
  {
    std::unique_lock lock(mutex_);
    if (nodes_ > 0)
      node =
          static_cast<int>((takes_turn ? requests_++ : requests_) % static_cast<uint64_t>(nodes_)) +
          1;
    returned_.wait(lock, [&] { return !idle_.empty() || lent_or_opening_ < options_.size; });
    std::unique_ptr<Slot> slot = take_idle(node);
    ++lent_or_opening_;
    if (slot) return Lease(this, std::move(slot));
  }
  Result<std::unique_ptr<Slot>> opened = open_slot(node);
  if (!opened.is_ok()) {
    give_back(nullptr);
    return opened.status();
  }
  return Lease(this, std::move(opened).value());
}

void LedgerPool::give_back(std::unique_ptr<Slot> slot) {
  {
    std::lock_guard lock(mutex_);
    --lent_or_opening_;
    if (slot) idle_.push_back(std::move(slot));
  }
  returned_.notify_one();
}

Result<std::unique_ptr<LedgerPool::Slot>> LedgerPool::open_slot(int node) const {
  auto slot = std::make_unique<Slot>();
  slot->node = node;
  ASSIGN_OR_RETURN(slot->ledger,
                   open_ledger(node > 0 ? url_on_node(options_.db, node) : options_.db,
                               Access::kWrite, options_.busy_timeout_ms, options_.isolation,
                               /*wait_in_process=*/true));
  if (options_.redis) {
    ASSIGN_OR_RETURN(std::unique_ptr<RedisStore> store, open_redis_store(*options_.redis));
    slot->guards = std::move(store);
  }
  if (options_.locks) {
    ASSIGN_OR_RETURN(std::unique_ptr<ZooKeeperStore> store, open_zookeeper_store(*options_.locks));
    slot->guards = std::move(store);
  }
  if (!options_.read_db.empty()) {
    ASSIGN_OR_RETURN(Connection standby,
                     open_ledger(options_.read_db, Access::kRead, options_.busy_timeout_ms));
    slot->reads =
        std::make_unique<ReadSplit>(std::move(standby), slot->ledger, options_.read_your_writes);
  }
  return slot;
}

}  // namespace idemlab
