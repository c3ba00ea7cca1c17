// A lock in etcd: a lease, a key put under it if it was never created, its create_revision
// the fence.
#include "db/etcd/etcd_store.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/base64.h"

namespace idemlab {

namespace {

std::string key_of(const Binds& binds) {
  return base64_encode("/idemlab-locks/" + bind_text(binds, ":name"));
}

// The lock's TTL in whole seconds, rounded up: etcd's leases count seconds.
int64_t ttl_seconds(const Binds& binds) {
  const int64_t ttl_ms = bind_int(binds, ":until") - bind_int(binds, ":now");
  return std::max<int64_t>(1, (ttl_ms + 999) / 1000);
}

StepResult refused(std::string_view what, long http, const nlohmann::json& reply) {
  StepResult result;
  result.code = StepCode::kError;
  result.error =
      fmt::format("etcd {}: HTTP {}: {}", what, http, reply.value("error", reply.dump()));
  return result;
}

}  // namespace

StepResult EtcdStore::call(std::string_view path, const nlohmann::json& body, nlohmann::json* reply,
                           long* http) {
  if (trace_) (*trace_)(fmt::format("POST {} {}", path, body.dump()));
  StepResult result = client_->post(path, body, reply, http);
  lost_ |= result.link_lost();
  return result;
}

StepResult EtcdStore::acquire(const std::string& key, const std::string& owner, int64_t ttl_s) {
  nlohmann::json reply;
  long http = 0;
  StepResult result = call("/v3/lease/grant", {{"TTL", std::to_string(ttl_s)}}, &reply, &http);
  if (!result.ok()) return result;
  if (http != 200) return refused("lease grant", http, reply);
  const std::string lease = reply.value("ID", "");
  const nlohmann::json txn = {
      {"compare",
       {{{"key", key}, {"target", "CREATE"}, {"result", "EQUAL"}, {"create_revision", "0"}}}},
      {"success",
       {{{"request_put", {{"key", key}, {"value", base64_encode(owner)}, {"lease", lease}}}}}},
      {"failure", {{{"request_range", {{"key", key}}}}}}};
  result = call("/v3/kv/txn", txn, &reply, &http);
  if (!result.ok()) return result;
  if (http != 200) return refused("txn", http, reply);
  if (!reply.value("succeeded", false)) {  // held by another: our lease goes
    nlohmann::json ignored;
    (void)call("/v3/lease/revoke", {{"ID", lease}}, &ignored, &http);
    return {};
  }
  leases_[key] = lease;
  result.changes = 1;
  result.row = Row{etcd_number(reply["header"]["revision"])};  // the fence
  return result;
}

StepResult EtcdStore::held(const std::string& key) {
  nlohmann::json reply;
  long http = 0;
  StepResult result = call("/v3/kv/range", {{"key", key}}, &reply, &http);
  if (!result.ok()) return result;
  if (http != 200) return refused("range", http, reply);
  const auto mine = leases_.find(key);
  const nlohmann::json kvs = reply.value("kvs", nlohmann::json::array());
  const bool held =
      mine != leases_.end() && !kvs.empty() && kvs[0].value("lease", "") == mine->second;
  result.row = Row{int64_t{held ? 1 : 0}};
  return result;
}

StepResult EtcdStore::release(const std::string& key) {
  const auto mine = leases_.find(key);
  if (mine == leases_.end()) return {};
  nlohmann::json reply;
  long http = 0;
  StepResult result = call("/v3/lease/revoke", {{"ID", mine->second}}, &reply, &http);
  leases_.erase(mine);
  if (!result.ok()) return result;
  if (http == 200) result.changes = 1;  // 404: the lease ran out; nothing to release
  return result;
}

StepResult EtcdStore::release_all(const std::string& key) {
  nlohmann::json reply;
  long http = 0;
  StepResult result = call("/v3/kv/deleterange", {{"key", key}}, &reply, &http);
  leases_.erase(key);
  if (!result.ok()) return result;
  if (http != 200) return refused("deleterange", http, reply);
  result.changes = etcd_number(reply.value("deleted", nlohmann::json()));
  return result;
}

StepResult EtcdStore::run(Stmt id, const Binds& binds) {
  const std::string key = key_of(binds);
  switch (id) {
    case Stmt::kAcquireLock:
      return acquire(key, bind_text(binds, ":owner"), ttl_seconds(binds));
    case Stmt::kCheckLockOwner:
      return held(key);
    case Stmt::kReleaseLock:
      return release(key);
    case Stmt::kReleaseLockAnyOwner:
      return release_all(key);
    default: {
      StepResult result;
      result.code = StepCode::kError;
      result.error = "etcd keeps locks only: tokens stay in the ledger or in --redis";
      return result;
    }
  }
}

std::string_view EtcdStore::statement_text(Stmt id) const {
  switch (id) {
    case Stmt::kAcquireLock:
      return "lease grant TTL; txn: if create_revision(/idemlab-locks/<name>) = 0, put it with "
             "the lease (fence: its create_revision)";
    case Stmt::kCheckLockOwner:
      return "range /idemlab-locks/<name>: there under this holder's lease";
    case Stmt::kReleaseLock:
      return "lease revoke (the key goes with it)";
    case Stmt::kReleaseLockAnyOwner:
      return "deleterange /idemlab-locks/<name>";
    default:
      return "";
  }
}

Result<std::unique_ptr<EtcdStore>> open_etcd_store(const EtcdLocator& locator) {
  const CurlApi* api = nullptr;
  RETURN_IF_ERROR(load_curl(&api));
  return std::make_unique<EtcdStore>(std::make_unique<EtcdClient>(api, locator));
}

}  // namespace idemlab
