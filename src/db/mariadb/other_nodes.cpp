// Asking a Galera cluster's other nodes about their sessions (other_nodes.h).
#include "db/mariadb/other_nodes.h"

#include "db/connection.h"
#include "db/mariadb/mariadb_backend.h"

namespace idemlab {

Result<NonBlocking*> OtherNodes::reach(int node) {
  std::unique_ptr<Backend>& link = nodes_[node];
  if (!link) {
    ASSIGN_OR_RETURN(link, open_mariadb(on_member(locator_, node), {}));
  }
  return link->nonblocking();
}

Status OtherNodes::unreachable(int node) {
  nodes_.erase(node);
  return Status::ok();
}

Status OtherNodes::lock_waits(int node, const std::vector<int64_t>& sessions,
                              std::vector<bool>* waiting) {
  waiting->assign(sessions.size(), false);
  Result<NonBlocking*> link = reach(node);
  if (!link.is_ok()) return unreachable(node);
  std::vector<std::vector<int64_t>> unused;
  Status asked = (*link)->lock_waits(sessions, waiting, &unused);
  if (!is_link_loss(asked)) return asked;
  waiting->assign(sessions.size(), false);
  return unreachable(node);
}

Status OtherNodes::cancel_statement(int64_t session) {
  const int node = node_of(session);
  Result<NonBlocking*> link = reach(node);
  if (!link.is_ok()) return unreachable(node);
  Status cancelled = (*link)->cancel_statement(session);
  return is_link_loss(cancelled) ? unreachable(node) : cancelled;
}

}  // namespace idemlab
