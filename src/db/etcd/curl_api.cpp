// Loading libcurl.
#include "db/etcd/curl_api.h"

#include "core/client_library.h"

namespace idemlab {

namespace {

bool resolve_curl(const ClientLibrary& library, CurlApi* api) {
  return resolve(library, "curl_easy_init", &api->init) &&
         resolve(library, "curl_easy_setopt", &api->setopt) &&
         resolve(library, "curl_easy_perform", &api->perform) &&
         resolve(library, "curl_easy_getinfo", &api->getinfo) &&
         resolve(library, "curl_easy_cleanup", &api->cleanup) &&
         resolve(library, "curl_easy_strerror", &api->strerror) &&
         resolve(library, "curl_slist_append", &api->slist_append) &&
         resolve(library, "curl_slist_free_all", &api->slist_free_all);
}

}  // namespace

Status load_curl(const CurlApi** out) {
  return load_client("libcurl.so.4", "libcurl4", resolve_curl, out);
}

}  // namespace idemlab
