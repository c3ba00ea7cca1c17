// ZooKeeper's calls, over the asynchronous API, each wait bounded.
#include "db/zookeeper/zookeeper_calls.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "db/zookeeper/zookeeper_api.h"

namespace idemlab {

struct ZooKeeperCalls::Call {
  std::mutex mutex;
  std::condition_variable answered;
  bool done = false;
  int rc = ZOK;
  std::string created;
  int64_t czxid = 0;
  std::vector<std::string> names;
};

namespace {

using Call = ZooKeeperCalls::Call;

constexpr std::chrono::milliseconds kPoll{10};

// The completions run on the library's completion thread. `answer` fills the call in under
// its lock; nothing touches the call after the lock is let go.
template <typename Fill>
void answer(const void* data, int rc, Fill fill) {
  auto* call = static_cast<Call*>(const_cast<void*>(data));
  std::lock_guard lock(call->mutex);
  call->rc = rc;
  if (rc == ZOK) fill(*call);
  call->done = true;
  call->answered.notify_all();
}

void created_answer(int rc, const char* path, const Stat* stat, const void* data) {
  answer(data, rc, [&](Call& call) {
    if (path) call.created = path;
    if (stat) call.czxid = stat->czxid;
  });
}

void children_answer(int rc, const String_vector* strings, const void* data) {
  answer(data, rc, [&](Call& call) {
    for (int i = 0; strings && i < strings->count; ++i) call.names.emplace_back(strings->data[i]);
  });
}

void exists_answer(int rc, const Stat*, const void* data) {
  answer(data, rc, [](Call&) {});
}

void void_answer(int rc, const void* data) {
  answer(data, rc, [](Call&) {});
}

}  // namespace

ZooKeeperCalls::ZooKeeperCalls(const ZooKeeperApi* api, zhandle_t* handle)
    : api_(api), handle_(handle) {
  // The library answers a request in flight within its session timeout (connection loss or an
  // operation time-out); four of them, and never less than 10 s, only catch what it never
  // answers.
  bound_ms_ = std::max<int64_t>(10'000, int64_t{4} * api_->recv_timeout(handle_));
}

ZooKeeperCalls::~ZooKeeperCalls() {
  api_->close(handle_);  // its threads end here: no answer comes after it
}

bool ZooKeeperCalls::session_lost() const {
  return api_->state(handle_) < 0;  // the library's own test: an expired or refused session
}

ZooKeeperCalls::Call* ZooKeeperCalls::start() {
  // Drop the answered calls left from before (one given up on, then answered late).
  calls_.remove_if([](Call& call) {
    std::lock_guard lock(call.mutex);
    return call.done;
  });
  return &calls_.emplace_back();
}

int ZooKeeperCalls::wait(Call* call, int sent) {
  if (sent != ZOK) return sent;  // never queued: no answer is coming
  std::unique_lock lock(call->mutex);
  for (int64_t waited = 0; !call->done; waited += kPoll.count()) {
    if (call->answered.wait_for(lock, kPoll, [&] { return call->done; })) break;
    if (session_lost()) return ZSESSIONEXPIRED;
    if (waited >= bound_ms_) return ZOPERATIONTIMEOUT;
  }
  return call->rc;
}

int ZooKeeperCalls::create(const std::string& path, std::string_view data, int mode,
                           std::string* created, int64_t* czxid) {
  Call* call = start();
  const int rc = wait(call, api_->acreate2(handle_, path.c_str(), data.data(),
                                           data.empty() ? -1 : static_cast<int>(data.size()),
                                           api_->open_acl, mode, created_answer, call));
  if (rc == ZOK) {
    if (created) *created = call->created;
    if (czxid) *czxid = call->czxid;
  }
  return rc;
}

int ZooKeeperCalls::children(const std::string& path, std::vector<std::string>* names) {
  Call* call = start();
  const int rc = wait(call, api_->aget_children(handle_, path.c_str(), 0, children_answer, call));
  if (rc == ZOK) *names = call->names;
  return rc;
}

int ZooKeeperCalls::exists(const std::string& path) {
  Call* call = start();
  return wait(call, api_->aexists(handle_, path.c_str(), 0, exists_answer, call));
}

int ZooKeeperCalls::remove(const std::string& path) {
  Call* call = start();
  return wait(call, api_->adelete(handle_, path.c_str(), -1, void_answer, call));
}

}  // namespace idemlab
