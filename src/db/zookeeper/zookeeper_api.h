// libzookeeper-mt's functions, loaded on first use (core/client_library.h): only a run that
// takes its locks from ZooKeeper (--locks zookeeper://...) loads the library.
#pragma once

// The synchronous calls are declared only for the multi-threaded library, which this is.
#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

#include "core/status.h"

namespace idemlab {

struct ZooKeeperApi {
  decltype(&zookeeper_init) init;
  decltype(&zookeeper_close) close;
  decltype(&zoo_create2) create2;
  decltype(&zoo_delete) remove;
  decltype(&zoo_exists) exists;
  decltype(&zoo_get_children) get_children;
  decltype(&zoo_state) state;
  decltype(&zoo_recv_timeout) recv_timeout;
  decltype(&zerror) error;
  decltype(&zoo_set_debug_level) set_debug_level;
  decltype(&deallocate_String_vector) free_strings;
  // The library's constants, which it exports as data.
  const int* ephemeral_sequential;
  const int* container;
  const int* connected_state;
  const int* expired_session_state;
  ACL_vector* open_acl;
};

Status load_zookeeper(const ZooKeeperApi** out);

}  // namespace idemlab
