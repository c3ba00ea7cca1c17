// Tests for db/zookeeper/zookeeper_calls: a call the ZooKeeper library never answers ends all
// the same. The library here is a fake (its functions in a ZooKeeperApi) that answers when the
// test says, or never: what the real one does to a request queued just as it learns that its
// session expired. No server is needed, and the lost answer is certain.
#include <doctest/doctest.h>

#include "db/zookeeper/zookeeper_api.h"
#include "db/zookeeper/zookeeper_calls.h"

using namespace idemlab;

namespace {

// The fake library's state: one per test, reached through globals as the C API has no
// context for these calls.
struct FakeLibrary {
  int state = 3;  // ZOO_CONNECTED_STATE's value
  bool answer_at_once = false;
  void_completion_t held = nullptr;  // a delete's answer, kept back
  const void* held_data = nullptr;
  int closed = 0;
};
FakeLibrary* fake = nullptr;

int fake_state(zhandle_t*) {
  return fake->state;
}
int fake_recv_timeout(zhandle_t*) {
  return 400;
}
int fake_close(zhandle_t*) {
  ++fake->closed;
  return ZOK;
}
int fake_adelete(zhandle_t*, const char*, int, void_completion_t done, const void* data) {
  if (fake->answer_at_once) {
    done(ZNONODE, data);
  } else {
    fake->held = done;
    fake->held_data = data;
  }
  return ZOK;
}
int fake_acreate2(zhandle_t*, const char* path, const char*, int, const ACL_vector*, int,
                  string_stat_completion_t done, const void* data) {
  Stat stat{};
  stat.czxid = 42;
  const std::string created = std::string(path) + "0000000007";
  done(ZOK, created.c_str(), &stat, data);
  return ZOK;
}

ZooKeeperApi fake_api() {
  ZooKeeperApi api{};
  api.state = fake_state;
  api.recv_timeout = fake_recv_timeout;
  api.close = fake_close;
  api.adelete = fake_adelete;
  api.acreate2 = fake_acreate2;
  return api;
}

// Any non-null handle: the fake never reads it.
zhandle_t* handle() {
  static char byte;
  return reinterpret_cast<zhandle_t*>(&byte);
}

}  // namespace

TEST_CASE("zookeeper calls: an answered call returns its answer") {
  FakeLibrary library;
  fake = &library;
  const ZooKeeperApi api = fake_api();
  {
    ZooKeeperCalls calls(&api, handle());
    std::string created;
    int64_t czxid = 0;
    CHECK(calls.create("/locks/a/lock-", "owner", 0, &created, &czxid) == ZOK);
    CHECK(created == "/locks/a/lock-0000000007");
    CHECK(czxid == 42);
    library.answer_at_once = true;
    CHECK(calls.remove("/locks/a/lock-0000000007") == ZNONODE);
  }
  CHECK(library.closed == 1);  // the calls own the handle
}

TEST_CASE("zookeeper calls: an unanswered call ends once the session is lost") {
  FakeLibrary library;
  fake = &library;
  const ZooKeeperApi api = fake_api();
  ZooKeeperCalls calls(&api, handle());
  library.state = -112;  // ZOO_EXPIRED_SESSION_STATE's value: the IO thread has stopped
  CHECK(calls.remove("/locks/a/lock-1") == ZSESSIONEXPIRED);
  REQUIRE(library.held_data != nullptr);
  // The answer may come late, until the handle is closed: it still has a call to write to.
  library.held(ZSESSIONEXPIRED, library.held_data);
  library.answer_at_once = true;
  CHECK(calls.remove("/locks/a/lock-2") == ZNONODE);
}

TEST_CASE("zookeeper calls: an unanswered call on a live session ends at the bound") {
  FakeLibrary library;
  fake = &library;
  const ZooKeeperApi api = fake_api();
  ZooKeeperCalls calls(&api, handle());
  calls.set_bound_ms(50);
  CHECK(calls.remove("/locks/a/lock-1") == ZOPERATIONTIMEOUT);
}
