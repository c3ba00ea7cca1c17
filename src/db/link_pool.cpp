// Lending links to attempts, and dropping the ones a failover took.
#include "db/link_pool.h"

#include <algorithm>

namespace idemlab {

namespace {

bool hung_up(const Links& links) {
  return links.ledger.hung_up() || (links.guards && links.guards->hung_up()) ||
         links.standby.hung_up();
}

}  // namespace

LinkPool::Lease::~Lease() {
  if (pool_) pool_->give_back(std::move(links_), epoch_);
}

uint64_t LinkPool::losses() const {
  std::lock_guard lock(mutex_);
  return losses_;
}

// An idle set on `member` (0: any), the newest first; else, when the pool may open no more,
// any idle set; else none. Sets idle since a loss, or whose server hung up, are closed here.
std::unique_ptr<Links> LinkPool::take_idle(int member, uint64_t* epoch) {
  std::erase_if(idle_,
                [&](const Idle& idle) { return idle.epoch < losses_ || hung_up(*idle.links); });
  auto found = std::find_if(idle_.rbegin(), idle_.rend(), [&](const Idle& idle) {
    return member == 0 || idle.links->member == member;
  });
  if (found == idle_.rend() && lent_or_opening_ >= size_) found = idle_.rbegin();
  if (found == idle_.rend()) return nullptr;
  std::unique_ptr<Links> links = std::move(found->links);
  *epoch = found->epoch;
  idle_.erase(std::next(found).base());
  return links;
}

Result<LinkPool::Lease> LinkPool::acquire(bool takes_turn) {
  uint64_t turn = 0, epoch = 0;
  {
    std::unique_lock lock(mutex_);
    turn = takes_turn ? turns_++ : turns_;
    const int member = member_for_turn(deployment_.ledger().topology, turn);
    returned_.wait(lock, [&] { return !idle_.empty() || lent_or_opening_ < size_; });
    std::unique_ptr<Links> links = take_idle(member, &epoch);
    ++lent_or_opening_;
    if (links) return Lease(this, std::move(links), epoch);
    epoch = losses_;
  }
  Result<Links> opened = opener_ ? opener_(deployment_, turn) : deployment_.open(turn);
  if (!opened.is_ok()) {
    give_back(nullptr, epoch);
    return opened.status();
  }
  return Lease(this, std::make_unique<Links>(std::move(opened).value()), epoch);
}

void LinkPool::give_back(std::unique_ptr<Links> links, uint64_t epoch) {
  {
    std::lock_guard lock(mutex_);
    --lent_or_opening_;
    if (links && links->lost()) {
      ++losses_;  // every set idle now was opened before the loss: closed when next looked at
    } else if (links) {
      // It came back whole: it worked after any loss counted before it was lent.
      idle_.push_back({std::move(links), std::max(epoch, losses_)});
    }
  }
  returned_.notify_one();
}

}  // namespace idemlab
