// Tests for http/transfer_server: what serve answers without its ledger. A path or method no
// resource takes is refused before a ledger connection is borrowed, so its answer stays a 404 or
// a 405 while the ledger cannot be reached; a resource's read still needs the ledger.
#include <doctest/doctest.h>

#include "http/transfer_server.h"

using namespace idemlab;

namespace {

// A server whose ledger cannot be opened: its folder does not exist.
TransferServer server_without_ledger() {
  DeploymentOptions options;
  options.db = "/nonexistent-idemlab-folder/ledger.db";
  Result<Deployment> deployment = Deployment::read(options);
  REQUIRE_MESSAGE(deployment.is_ok(), deployment.status().message());
  return TransferServer(ServeSettings{}, std::move(deployment).value(), 1);
}

HttpMessage request(const char* method, const char* path) {
  HttpMessage message;
  message.method = method;
  message.path = path;
  return message;
}

}  // namespace

TEST_CASE("a path or method no resource takes is refused without the ledger") {
  TransferServer server = server_without_ledger();
  const HttpReply unknown = server.handle(request("GET", "/nothing-here"));
  CHECK(unknown.status == 404);
  const HttpReply wrong_method = server.handle(request("DELETE", "/accounts/alice"));
  CHECK(wrong_method.status == 405);
  // A resource it has is read from the ledger, which is out of reach: not a 404.
  const HttpReply account = server.handle(request("GET", "/accounts/alice"));
  CHECK(account.status / 100 == 5);
}
