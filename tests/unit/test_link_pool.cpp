// Tests for db/link_pool: what is lent again, what a lost link takes with it, and whose turn
// each set is on a cluster. The sets are opened by a test opener, their guard store a fake
// whose link can be cut.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <vector>

#include "db/link_pool.h"
#include "scratch.h"

using namespace idemlab;
using namespace idemlab::test;

namespace {

// A guard store that runs nothing, whose link the test cuts (a statement found it lost) or
// hangs up (the server spoke while it was idle).
class FakeStore final : public GuardStore {
 public:
  StepResult run(Stmt, const Binds&) override { return {}; }
  std::string_view statement_text(Stmt) const override { return ""; }
  void set_trace(TraceSink) override {}
  const std::string& location() const override { return name_; }
  bool link_lost() const override { return lost; }
  bool hung_up() const override { return hung; }
  bool lost = false;
  bool hung = false;

 private:
  std::string name_ = "fake";
};

Deployment deployment_of(const std::string& db) {
  DeploymentOptions options;
  options.db = db;
  Result<Deployment> deployment = Deployment::read(options);
  REQUIRE_MESSAGE(deployment.is_ok(), deployment.status().message());
  return std::move(deployment).value();
}

// Opens sets whose store is a FakeStore, keeping each one's store and turn for the test.
struct Opened {
  std::vector<FakeStore*> stores;
  std::vector<uint64_t> turns;
  LinkPool::Opener opener() {
    return [this](const Deployment& deployment, uint64_t turn) -> Result<Links> {
      Links links;
      links.member = member_for_turn(deployment.ledger().topology, turn);
      auto store = std::make_unique<FakeStore>();
      stores.push_back(store.get());
      turns.push_back(turn);
      links.guards = std::move(store);
      return links;
    };
  }
};

FakeStore& store_of(LinkPool::Lease& lease) {
  return static_cast<FakeStore&>(*lease->guards);
}

}  // namespace

TEST_CASE("a set that comes back whole is lent again; a second at once is opened anew") {
  Opened opened;
  LinkPool pool(deployment_of("l.db"), 2, opened.opener());
  {
    LinkPool::Lease first = pool.acquire().value();
    LinkPool::Lease second = pool.acquire().value();
    CHECK(&store_of(first) != &store_of(second));
  }
  LinkPool::Lease again = pool.acquire().value();
  CHECK(opened.stores.size() == 2);
  CHECK(pool.losses() == 0);
}

TEST_CASE("a set whose link was lost is closed, and so is every set left idle before it") {
  Opened opened;
  LinkPool pool(deployment_of("l.db"), 3, opened.opener());
  std::optional<LinkPool::Lease> a = pool.acquire().value();
  std::optional<LinkPool::Lease> b = pool.acquire().value();
  std::optional<LinkPool::Lease> c = pool.acquire().value();
  a.reset();  // a and b went idle first; then c's request met the failover
  b.reset();
  store_of(*c).lost = true;
  c.reset();
  CHECK(pool.losses() == 1);
  LinkPool::Lease next = pool.acquire().value();
  CHECK(opened.stores.size() == 4);  // neither a nor b was lent: a new set through the topology
}

TEST_CASE("a set lent before a loss that comes back whole worked after it, and is kept") {
  Opened opened;
  LinkPool pool(deployment_of("l.db"), 2, opened.opener());
  std::optional<LinkPool::Lease> lost = pool.acquire().value();
  std::optional<LinkPool::Lease> whole = pool.acquire().value();
  store_of(*lost).lost = true;
  lost.reset();
  whole.reset();
  LinkPool::Lease next = pool.acquire().value();
  CHECK(opened.stores.size() == 2);
}

TEST_CASE("a set whose server hung up while it sat idle is closed before it is lent") {
  Opened opened;
  LinkPool pool(deployment_of("l.db"), 2, opened.opener());
  FakeStore* idle = nullptr;
  {
    LinkPool::Lease first = pool.acquire().value();
    idle = &store_of(first);
  }
  idle->hung = true;  // the server stopped, and said so on the idle socket
  LinkPool::Lease next = pool.acquire().value();
  CHECK(opened.stores.size() == 2);  // a new set was opened (the old one's memory may be reused)
  CHECK(!store_of(next).hung);
}

TEST_CASE("on a cluster no node= pins, each acquire takes the next node's turn") {
  Opened opened;
  LinkPool pool(deployment_of("mariadb://u:pw@h:1,h:2,h:3/ledger"), 3, opened.opener());
  std::vector<int> members;
  for (int i = 0; i < 4; ++i) members.push_back(pool.acquire().value()->member);
  CHECK(members == std::vector<int>{1, 2, 3, 1});
  LinkPool pinned(deployment_of("mariadb://u:pw@h:1,h:2,h:3/ledger?node=2"), 3, opened.opener());
  CHECK(pinned.acquire().value()->member == 2);
  CHECK(pinned.acquire().value()->member == 2);
}

TEST_CASE("a set the opener cannot open is the request's error; the next acquire tries again") {
  int calls = 0;
  LinkPool pool(deployment_of("l.db"), 1, [&](const Deployment&, uint64_t) -> Result<Links> {
    if (++calls == 1) return Status::unavailable("no_primary", "none yet");
    return Links();
  });
  CHECK(pool.acquire().status().reason() == "no_primary");
  CHECK(pool.acquire().is_ok());  // the slot the failure held was given back
}
