// LinkPool: the links (deployment.h) a command that runs many attempts keeps and lends, one set
// to each attempt at a time: serve lends one to each request it serves at once, consume one to
// each delivery. Opened on first need, kept, and lent again, unless an attempt found one of its
// links lost: then that set is closed when it comes back, and so is every set left idle since
// (a failover that cut one connection cut the others opened before it), and the next request
// opens new ones through the topology. A set left idle whose server has since spoken or closed
// the socket (a server that stops sends its goodbye) is closed when next taken, before a
// request can meet it.
//
// On a cluster that spreads connections, each acquire takes the next node's turn: a set on that
// node if one is idle, else one opened there; once `size` sets are open and none on that node is
// idle, any idle one. On a SQLite file the connections take its one writer in turn.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "db/deployment.h"

namespace idemlab {

class LinkPool {
 public:
  // How a set is opened for a turn: the deployment's open() unless a test gives its own.
  using Opener = std::function<Result<Links>(const Deployment&, uint64_t turn)>;

  LinkPool(Deployment deployment, int size, Opener opener = {})
      : deployment_(std::move(deployment)), size_(std::max(1, size)), opener_(std::move(opener)) {}

  // A set lent to one attempt, given back when it goes; closed instead when one of its links
  // was found lost.
  class Lease {
   public:
    Lease(LinkPool* pool, std::unique_ptr<Links> links, uint64_t epoch)
        : pool_(pool), links_(std::move(links)), epoch_(epoch) {}
    Lease(Lease&& other) noexcept
        : pool_(std::exchange(other.pool_, nullptr)),
          links_(std::move(other.links_)),
          epoch_(other.epoch_) {}
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    Links& operator*() { return *links_; }
    Links* operator->() { return links_.get(); }

   private:
    LinkPool* pool_;
    std::unique_ptr<Links> links_;
    uint64_t epoch_;  // the pool's losses when it was opened or last came back whole
  };

  // A set; waits while all are lent. Opening one can fail (a server full, or gone while the
  // topology settles): the error is the caller's answer, and the next acquire tries again.
  // `takes_turn` false (a check of the ledger before a command starts) uses the node whose turn
  // is next and leaves it next.
  Result<Lease> acquire(bool takes_turn = true);
  const Deployment& deployment() const { return deployment_; }
  // How many sets came back with a link lost, since the pool began.
  uint64_t losses() const;

 private:
  struct Idle {
    std::unique_ptr<Links> links;
    uint64_t epoch;
  };
  void give_back(std::unique_ptr<Links> links, uint64_t epoch);
  std::unique_ptr<Links> take_idle(int member, uint64_t* epoch);

  Deployment deployment_;
  int size_;
  Opener opener_;
  mutable std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<Idle> idle_;
  int lent_or_opening_ = 0;
  uint64_t turns_ = 0;   // sets lent so far: the next one's turn
  uint64_t losses_ = 0;  // sets that came back with a link lost
};

}  // namespace idemlab
