// A Galera node that cannot be reached while a run asks about its sessions (it died under the
// run, or is rejoining): none of them is seen waiting, and nothing fails, so that each one's
// own socket tells the run it is gone.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "db/mariadb/other_nodes.h"

namespace idemlab {

namespace {

// A port on 127.0.0.1 that nobody listens on now: one the kernel gave, then closed.
int closed_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  socklen_t size = sizeof address;
  REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0);
  close(fd);
  return ntohs(address.sin_port);
}

}  // namespace

TEST_CASE("other nodes: an unreachable node's sessions wait for nothing, and cancel nothing") {
  const int port = closed_port();
  Locator cluster;
  REQUIRE(
      parse_locator(fmt::format("mariadb://u:pw@127.0.0.1:{0},127.0.0.1:{0},127.0.0.1:{0}/x", port),
                    &cluster)
          .is_ok());
  const Locator node1 = on_member(cluster, 1);
  OtherNodes others(node1);
  const int64_t on_node2 = OtherNodes::session_of(2, 17);
  const int64_t also_on_node2 = OtherNodes::session_of(2, 18);
  CHECK(OtherNodes::node_of(on_node2) == 2);
  CHECK(OtherNodes::thread_of(on_node2) == 17);
  std::vector<bool> waiting{true};
  const Status asked = others.lock_waits(2, {on_node2, also_on_node2}, &waiting);
  CHECK_MESSAGE(asked.is_ok(), asked.message());
  CHECK(waiting == std::vector<bool>{false, false});
  const Status cancelled = others.cancel_statement(on_node2);
  CHECK_MESSAGE(cancelled.is_ok(), cancelled.message());
}

}  // namespace idemlab
