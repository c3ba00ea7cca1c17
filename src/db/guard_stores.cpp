// The table of guard stores.
#include "db/guard_stores.h"

#include <fmt/format.h>

#include <array>

#include "db/etcd/etcd_locator.h"
#include "db/etcd/etcd_store.h"
#include "db/locator.h"
#include "db/redis/redis_locator.h"
#include "db/redis/redis_store.h"
#include "db/zookeeper/zookeeper_locator.h"
#include "db/zookeeper/zookeeper_store.h"

namespace idemlab {

namespace {

Result<std::unique_ptr<GuardStore>> open_redis(std::string_view url) {
  RedisLocator locator;
  RETURN_IF_ERROR(parse_redis_locator(url, &locator));
  ASSIGN_OR_RETURN(std::unique_ptr<RedisStore> store, open_redis_store(locator));
  return std::unique_ptr<GuardStore>(std::move(store));
}

Result<std::unique_ptr<GuardStore>> open_zookeeper(std::string_view url) {
  ZooKeeperLocator locator;
  RETURN_IF_ERROR(parse_zookeeper_locator(url, &locator));
  ASSIGN_OR_RETURN(std::unique_ptr<ZooKeeperStore> store, open_zookeeper_store(locator));
  return std::unique_ptr<GuardStore>(std::move(store));
}

Result<std::unique_ptr<GuardStore>> open_etcd(std::string_view url) {
  EtcdLocator locator;
  RETURN_IF_ERROR(parse_etcd_locator(url, &locator));
  ASSIGN_OR_RETURN(std::unique_ptr<EtcdStore> store, open_etcd_store(locator));
  return std::unique_ptr<GuardStore>(std::move(store));
}

Status read_etcd(std::string_view url, Topology* topology) {
  EtcdLocator locator;
  RETURN_IF_ERROR(parse_etcd_locator(url, &locator));
  *topology = locator.topology;
  return Status::ok();
}

Status read_redis(std::string_view url, Topology* topology) {
  RedisLocator locator;
  RETURN_IF_ERROR(parse_redis_locator(url, &locator));
  *topology = locator.topology;
  return Status::ok();
}

Status read_zookeeper(std::string_view url, Topology* topology) {
  ZooKeeperLocator locator;
  RETURN_IF_ERROR(parse_zookeeper_locator(url, &locator));
  *topology = locator.topology;
  return Status::ok();
}

struct StoreRow {
  GuardStoreKind kind;
  Status (*read)(std::string_view url, Topology* topology);
  Result<std::unique_ptr<GuardStore>> (*open)(std::string_view url);
};

constexpr std::array<StoreRow, 4> kStores{{
    {{"redis", "--redis", true}, read_redis, open_redis},
    {{"redis-sentinel", "--redis", true}, read_redis, open_redis},
    {{"zookeeper", "--locks", false}, read_zookeeper, open_zookeeper},
    {{"etcd", "--locks", false}, read_etcd, open_etcd},
}};

const StoreRow* row_of(std::string_view url) {
  for (const StoreRow& row : kStores)
    if (url.starts_with(row.kind.scheme) && url.substr(row.kind.scheme.size()).starts_with("://"))
      return &row;
  return nullptr;
}

}  // namespace

Result<const GuardStoreKind*> read_guard_store_url(std::string_view url, Topology* topology) {
  const StoreRow* row = row_of(url);
  if (!row)
    return Status::usage(fmt::format(
        "{}: a store of tokens and locks is redis://..., redis-sentinel://..., zookeeper://... or "
        "etcd://...",
        redact_locator(url)));
  RETURN_IF_ERROR(row->read(url, topology));
  return &row->kind;
}

Result<std::unique_ptr<GuardStore>> open_guard_store(std::string_view url) {
  const StoreRow* row = row_of(url);
  if (!row) return Status::internal("open_guard_store: read the URL first");
  return row->open(url);
}

}  // namespace idemlab
