// libzookeeper-mt's functions, loaded on first use (core/client_library.h): only a run that
// takes its locks from ZooKeeper (--locks zookeeper://...) loads the library.
#pragma once

// THREADED: this is the multi-threaded library, with its own IO and completion threads.
#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

#include "core/status.h"

namespace idemlab {

struct ZooKeeperApi {
  decltype(&zookeeper_init) init;
  decltype(&zookeeper_close) close;
  // The asynchronous calls: zookeeper_calls.h waits for their answers, bounded.
  decltype(&zoo_acreate2) acreate2;
  decltype(&zoo_adelete) adelete;
  decltype(&zoo_aexists) aexists;
  decltype(&zoo_aget_children) aget_children;
  decltype(&zoo_state) state;
  decltype(&zoo_recv_timeout) recv_timeout;
  decltype(&zerror) error;
  decltype(&zoo_set_debug_level) set_debug_level;
  // The library's constants, which it exports as data.
  const int* ephemeral_sequential;
  const int* container;
  const int* connected_state;
  const int* expired_session_state;
  ACL_vector* open_acl;
};

Status load_zookeeper(const ZooKeeperApi** out);

}  // namespace idemlab
