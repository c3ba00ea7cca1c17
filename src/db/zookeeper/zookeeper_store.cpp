// ZooKeeper's lock recipe, without queueing.
#include "db/zookeeper/zookeeper_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "core/interrupt.h"
#include "db/zookeeper/zookeeper_api.h"

namespace idemlab {

namespace {

constexpr const char* kRoot = "/idemlab-locks";
constexpr std::string_view kNodePrefix = "lock-";

// The lock's parent node: its name, with '%' and '/' escaped (a znode name cannot hold '/').
std::string parent_of(const Binds& binds) {
  std::string out = std::string(kRoot) + "/";
  for (char c : bind_text(binds, ":name")) {
    if (c == '%')
      out += "%25";
    else if (c == '/')
      out += "%2F";
    else
      out += c;
  }
  return out;
}

// A node's sequence number: the digits after "lock-".
std::string_view sequence_of(std::string_view node) {
  const size_t slash = node.rfind('/');
  if (slash != std::string_view::npos) node = node.substr(slash + 1);
  return node.substr(std::min(node.size(), kNodePrefix.size()));
}

// ZooKeeper's answer for a call that may or may not have happened: the link is as good as
// lost; an expired session has lost its locks with it.
StepCode code_of(int rc) {
  if (rc == ZCONNECTIONLOSS || rc == ZOPERATIONTIMEOUT || rc == ZSESSIONEXPIRED ||
      rc == ZINVALIDSTATE)
    return StepCode::kConnectionLost;
  return StepCode::kError;
}

}  // namespace

void ZooKeeperStore::trace(const std::string& line) const {
  if (trace_) (*trace_)(line);
}

StepResult ZooKeeperStore::failed(int rc, std::string_view what) const {
  StepResult result;
  result.code = code_of(rc);
  result.error = fmt::format("ZooKeeper {}: {} ({})", what, api_->error(rc), rc);
  return result;
}

StepResult ZooKeeperStore::acquire(const std::string& parent, const std::string& owner) {
  for (const std::string& path : {std::string(kRoot), parent}) {
    const int rc = calls_.create(path, {}, path == kRoot ? 0 : *api_->container, nullptr, nullptr);
    if (rc != ZOK && rc != ZNODEEXISTS) return failed(rc, "create " + path);
  }
  const std::string prefix = parent + "/" + std::string(kNodePrefix);
  trace(fmt::format("create {} EPHEMERAL_SEQUENTIAL data={}", prefix, owner));
  std::string created;
  int64_t czxid = 0;
  int rc = calls_.create(prefix, owner, *api_->ephemeral_sequential, &created, &czxid);
  if (rc != ZOK) return failed(rc, "create " + prefix);
  std::vector<std::string> children;
  rc = calls_.children(parent, &children);
  if (rc != ZOK) return failed(rc, "get_children " + parent);
  std::string_view lowest = sequence_of(created);
  for (const std::string& child : children) lowest = std::min(lowest, sequence_of(child));
  StepResult result;
  if (lowest != sequence_of(created)) {  // a lower node holds it: take ours back, "taken"
    (void)calls_.remove(created);
    return result;
  }
  mine_[parent] = created;
  result.changes = 1;
  result.row = Row{czxid};  // the fence
  return result;
}

StepResult ZooKeeperStore::held(const std::string& parent) {
  StepResult result;
  const auto found = mine_.find(parent);
  int rc = ZNONODE;
  if (found != mine_.end()) {
    trace("exists " + found->second);
    rc = calls_.exists(found->second);
  }
  // Anything but "there": not held. An expired session's nodes are gone; a lost link cannot
  // vouch for the lock either.
  result.row = Row{int64_t{rc == ZOK ? 1 : 0}};
  return result;
}

StepResult ZooKeeperStore::release(const std::string& parent) {
  StepResult result;
  const auto found = mine_.find(parent);
  if (found == mine_.end()) return result;
  trace("delete " + found->second);
  const int rc = calls_.remove(found->second);
  mine_.erase(found);
  if (rc == ZOK) result.changes = 1;
  return result;  // gone already (its session expired): nothing to release
}

StepResult ZooKeeperStore::release_all(const std::string& parent) {
  StepResult result;
  std::vector<std::string> children;
  trace("delete every child of " + parent);
  const int rc = calls_.children(parent, &children);
  if (rc == ZNONODE) return result;
  if (rc != ZOK) return failed(rc, "get_children " + parent);
  for (const std::string& child : children)
    if (calls_.remove(parent + "/" + child) == ZOK) ++result.changes;
  mine_.erase(parent);
  return result;
}

StepResult ZooKeeperStore::run(Stmt id, const Binds& binds) {
  StepResult result = run_lock_statement(id, binds);
  lost_ |= result.link_lost();  // an expired session's locks are gone: a new one is opened
  return result;
}

StepResult ZooKeeperStore::run_lock_statement(Stmt id, const Binds& binds) {
  const std::string parent = parent_of(binds);
  switch (id) {
    case Stmt::kAcquireLock:
      return acquire(parent, bind_text(binds, ":owner"));
    case Stmt::kCheckLockOwner:
      return held(parent);
    case Stmt::kReleaseLock:
      return release(parent);
    case Stmt::kReleaseLockAnyOwner:
      return release_all(parent);
    default: {
      StepResult result;
      result.code = StepCode::kError;
      result.error = "ZooKeeper keeps locks only: tokens stay in the ledger or in --redis";
      return result;
    }
  }
}

std::string_view ZooKeeperStore::statement_text(Stmt id) const {
  switch (id) {
    case Stmt::kAcquireLock:
      return "create /idemlab-locks/<name>/lock- EPHEMERAL_SEQUENTIAL; the lowest holds (fence: "
             "its czxid)";
    case Stmt::kCheckLockOwner:
      return "exists /idemlab-locks/<name>/lock-<n>";
    case Stmt::kReleaseLock:
      return "delete /idemlab-locks/<name>/lock-<n>";
    case Stmt::kReleaseLockAnyOwner:
      return "delete every /idemlab-locks/<name>/lock-*";
    default:
      return "";
  }
}

Result<std::unique_ptr<ZooKeeperStore>> open_zookeeper_store(const ZooKeeperLocator& locator) {
  const ZooKeeperApi* api = nullptr;
  RETURN_IF_ERROR(load_zookeeper(&api));
  api->set_debug_level(static_cast<ZooLogLevel>(0));  // its log would write over the answers
  zhandle_t* handle =
      api->init(locator.hosts.c_str(), nullptr, locator.session_ms, nullptr, nullptr, 0);
  if (!handle)
    return Status::unavailable("connection_lost",
                               fmt::format("{}: cannot start a ZooKeeper client", locator.shown));
  // The session is set up by the library's own thread: wait for it, bounded, and stop at a
  // signal.
  const int64_t polls = int64_t{locator.connect_timeout_s} * 100;
  for (int64_t i = 0; i < polls && api->state(handle) != *api->connected_state; ++i) {
    if (!check_interrupt().is_ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (api->state(handle) != *api->connected_state) {
    api->close(handle);
    RETURN_IF_ERROR(check_interrupt());
    return Status::unavailable(
        "no_answer",
        fmt::format("{} did not open a session within {} s (connect_timeout={})", locator.shown,
                    locator.connect_timeout_s, locator.connect_timeout_s));
  }
  return std::make_unique<ZooKeeperStore>(api, handle, locator.shown);
}

}  // namespace idemlab
