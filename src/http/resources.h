// `idemlab http`: the smallest real HTTP resources on the ledger, to show which methods are
// idempotent by their meaning. GET reads; PUT sets a limit absolutely and DELETE removes it
// (a repeat leaves the same state); POST creates a new transfer each time, unless the client
// sends an Idempotency-Key, which becomes the transfer's biz_seq under select-insert.
//
//   GET    /accounts/NAME         the balance and limit
//   PUT    /accounts/NAME/limit   body amount=50.00
//   DELETE /accounts/NAME/limit
//   POST   /transfers             body from=alice&to=bob&amount=10.00
//   GET    /transfers/ID          the transfer's state (source "http")
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attempt/fault.h"
#include "core/clock.h"
#include "db/connection.h"

namespace idemlab {

inline constexpr std::string_view kHttpSource = "http";

struct HttpRequest {
  std::string method;                       // GET, PUT, DELETE, POST
  std::string path;                         // e.g. /accounts/alice/limit
  std::map<std::string, std::string> form;  // the body, application/x-www-form-urlencoded
  std::string idempotency_key;              // the Idempotency-Key header, or empty
  std::vector<FaultSpec> faults;            // request-lost, response-lost
};

struct HttpResponse {
  int status = 0;  // 0: no answer reached the client (the fault says why)
  std::string location;
  std::string allow;  // with 405: the methods the path accepts
  bool replayed = false;
  nlohmann::ordered_json body = nlohmann::ordered_json::object();
  std::string lost;  // request-lost or response-lost, when status is 0
};

// Checks the method, path and form before anything is opened; usage errors only.
Status check_http_request(const HttpRequest& request);

// Serves one request against the ledger (opened for writing).
Status serve_http(Connection& connection, const Clock& clock, const HttpRequest& request,
                  HttpResponse* out);

// "200 OK", "404 Not Found", ...
std::string http_status_line(int status);

}  // namespace idemlab
