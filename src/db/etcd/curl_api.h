// libcurl's functions, loaded on first use (core/client_library.h): only a run that keeps its
// locks in etcd (--locks etcd://...) loads the library. etcd 3.4's v3 API is gRPC; its JSON
// gateway takes the same requests over HTTP, which libcurl speaks.
#pragma once

#include <curl/curl.h>

#include "core/status.h"

namespace idemlab {

struct CurlApi {
  decltype(&curl_easy_init) init;
  decltype(&curl_easy_setopt) setopt;
  decltype(&curl_easy_perform) perform;
  decltype(&curl_easy_getinfo) getinfo;
  decltype(&curl_easy_cleanup) cleanup;
  decltype(&curl_easy_strerror) strerror;
  decltype(&curl_slist_append) slist_append;
  decltype(&curl_slist_free_all) slist_free_all;
};

Status load_curl(const CurlApi** out);

}  // namespace idemlab
