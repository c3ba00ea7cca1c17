// Lending ledger connections to requests.
#include "http/ledger_pool.h"

#include "db/redis/redis_store.h"
#include "db/schema/ledger_file.h"
#include "db/zookeeper/zookeeper_store.h"

namespace idemlab {

LedgerPool::Lease::~Lease() {
  if (pool_) pool_->give_back(std::move(slot_));
}

Result<LedgerPool::Lease> LedgerPool::acquire() {
  {
    std::unique_lock lock(mutex_);
    returned_.wait(lock, [&] { return !idle_.empty() || lent_or_opening_ < options_.size; });
    if (!idle_.empty()) {
      std::unique_ptr<Slot> slot = std::move(idle_.back());
      idle_.pop_back();
      ++lent_or_opening_;
      return Lease(this, std::move(slot));
    }
    ++lent_or_opening_;
  }
  Result<std::unique_ptr<Slot>> opened = open_slot();
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

Result<std::unique_ptr<LedgerPool::Slot>> LedgerPool::open_slot() const {
  auto slot = std::make_unique<Slot>();
  ASSIGN_OR_RETURN(slot->ledger, open_ledger(options_.db, Access::kWrite, options_.busy_timeout_ms,
                                             options_.isolation, /*wait_in_process=*/true));
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
