// EtcdClient: requests to etcd's v3 API through its JSON gateway (POST /v3/..., keys and values
// in base64, 64-bit numbers as strings), on one member at a time: the one that answered last,
// and the next in the URL when a member refuses the connection or answers that it cannot serve
// (5xx), as etcd's own clients move between endpoints. A request that was sent and got no
// answer within connect_timeout may have been applied: it is answered as a lost link, not
// tried again elsewhere.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "db/backend.h"
#include "db/etcd/curl_api.h"
#include "db/etcd/etcd_locator.h"

namespace idemlab {

class EtcdClient {
 public:
  EtcdClient(const CurlApi* api, EtcdLocator locator) : api_(api), locator_(std::move(locator)) {}
  ~EtcdClient();
  EtcdClient(const EtcdClient&) = delete;
  EtcdClient& operator=(const EtcdClient&) = delete;

  // POSTs `body` to `path`; *reply is the JSON answered and *http its status (200, or 404 for a
  // lease that is gone). A failed result: no member answered, or one answered what is not JSON.
  StepResult post(std::string_view path, const nlohmann::json& body, nlohmann::json* reply,
                  long* http);
  // The member that answered last, HOST:PORT.
  const std::string& member() const { return locator_.members[current_]; }
  const std::string& shown() const { return locator_.shown; }

 private:
  // One try on `member`: CURLE_OK and *http set, or libcurl's error.
  CURLcode send(const std::string& member, std::string_view path, const std::string& body,
                std::string* answer, long* http);

  const CurlApi* api_;
  EtcdLocator locator_;
  CURL* curl_ = nullptr;
  size_t current_ = 0;
};

// A JSON gateway number (a string, or absent: 0).
int64_t etcd_number(const nlohmann::json& value);

}  // namespace idemlab
