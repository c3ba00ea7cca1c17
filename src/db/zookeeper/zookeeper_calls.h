// ZooKeeperCalls: the four ZooKeeper calls the lock recipe makes, each waited for with a bound.
//
// The library's own synchronous calls wait for their answer without a bound, and one can wait
// for ever: the library's IO thread stops for good once it learns that its session expired,
// and a request queued in the instant between the call's own check of the session and that
// learning is never sent and never answered. A lock holder resumed after a long pause (the
// case lock-table's --fence is there for) asks exactly then. These calls use the asynchronous
// API and stop waiting once the session is past saving (what the library calls
// unrecoverable: a state below zero) or after a bound well past the session's own timeout;
// either way the call is answered as a link lost: it may or may not have happened.
#pragma once

#include <cstdint>
#include <list>
#include <string>
#include <string_view>
#include <vector>

typedef struct _zhandle zhandle_t;

namespace idemlab {

struct ZooKeeperApi;

class ZooKeeperCalls {
 public:
  // Owns `handle` from here: the destructor closes it.
  ZooKeeperCalls(const ZooKeeperApi* api, zhandle_t* handle);
  ~ZooKeeperCalls();
  ZooKeeperCalls(const ZooKeeperCalls&) = delete;
  ZooKeeperCalls& operator=(const ZooKeeperCalls&) = delete;

  // Each returns the library's code (ZOK, ZNODEEXISTS, ZSESSIONEXPIRED, ...).
  // create: `created` gets the node's path (a sequential node's number added), `czxid` the
  // transaction id that created it; both may be null.
  int create(const std::string& path, std::string_view data, int mode, std::string* created,
             int64_t* czxid);
  int children(const std::string& path, std::vector<std::string>* names);
  int exists(const std::string& path);
  int remove(const std::string& path);

  // How long a call waits at most when the library never answers (tests shorten it).
  void set_bound_ms(int64_t ms) { bound_ms_ = ms; }

  struct Call;  // one call's answer, written by the library's completion thread

 private:
  Call* start();
  // Waits for `call`'s answer, unless `sent` (the asynchronous call's own code) failed.
  int wait(Call* call, int sent);
  bool session_lost() const;

  const ZooKeeperApi* api_;
  zhandle_t* handle_;
  int64_t bound_ms_;
  // Every call whose answer has not been read: one given up on may still be answered later,
  // until the handle is closed, so it lives as long as the handle.
  std::list<Call> calls_;
};

}  // namespace idemlab
