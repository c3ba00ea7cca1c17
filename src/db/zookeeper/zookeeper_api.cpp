// Loading libzookeeper-mt.
#include "db/zookeeper/zookeeper_api.h"

#include "core/client_library.h"

namespace idemlab {

namespace {

bool resolve_functions(const ClientLibrary& library, ZooKeeperApi* api) {
  return resolve(library, "zookeeper_init", &api->init) &&
         resolve(library, "zookeeper_close", &api->close) &&
         resolve(library, "zoo_acreate2", &api->acreate2) &&
         resolve(library, "zoo_adelete", &api->adelete) &&
         resolve(library, "zoo_aexists", &api->aexists) &&
         resolve(library, "zoo_aget_children", &api->aget_children) &&
         resolve(library, "zoo_state", &api->state) &&
         resolve(library, "zoo_recv_timeout", &api->recv_timeout) &&
         resolve(library, "zerror", &api->error) &&
         resolve(library, "zoo_set_debug_level", &api->set_debug_level);
}

bool resolve_zookeeper(const ClientLibrary& library, ZooKeeperApi* api) {
  return resolve_functions(library, api) &&
         resolve(library, "ZOO_EPHEMERAL_SEQUENTIAL", &api->ephemeral_sequential) &&
         resolve(library, "ZOO_CONTAINER", &api->container) &&
         resolve(library, "ZOO_CONNECTED_STATE", &api->connected_state) &&
         resolve(library, "ZOO_EXPIRED_SESSION_STATE", &api->expired_session_state) &&
         resolve(library, "ZOO_OPEN_ACL_UNSAFE", &api->open_acl);
}

}  // namespace

Status load_zookeeper(const ZooKeeperApi** out) {
  return load_client("libzookeeper_mt.so.2", "libzookeeper-mt2", resolve_zookeeper, out);
}

}  // namespace idemlab
