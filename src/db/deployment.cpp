// Reading a deployment's URLs, and opening its links.
#include "db/deployment.h"

#include <fmt/format.h>

#include "db/guard_stores.h"
#include "db/replication.h"
#include "db/schema/ledger_file.h"

namespace idemlab {

bool Links::lost() const {
  return ledger.link_lost() || (guards && guards->link_lost()) || standby.link_lost();
}

StatementRunner& Links::token_store() {
  return guards ? static_cast<StatementRunner&>(*guards) : static_cast<StatementRunner&>(ledger);
}

Result<Deployment> Deployment::read(DeploymentOptions options) {
  Deployment out;
  RETURN_IF_ERROR(parse_locator(options.db, &out.ledger_));
  if (!options.guards.empty())
    RETURN_IF_ERROR(read_guard_store_url(options.guards, &out.guard_topology_).status());
  if (!options.read_db.empty()) {
    RETURN_IF_ERROR(parse_locator(options.read_db, &out.standby_));
    RETURN_IF_ERROR(check_standby_url(out.ledger_, out.standby_));
  }
  out.options_ = std::move(options);
  return out;
}

Result<Links> Deployment::open_on(int member) const {
  Links links;
  links.member = member;
  ASSIGN_OR_RETURN(links.ledger,
                   open_ledger(on_member(ledger_, member), Access::kWrite, options_.busy_timeout_ms,
                               options_.isolation, options_.wait_in_process));
  if (!options_.guards.empty()) {
    ASSIGN_OR_RETURN(links.guards, open_guard_store(options_.guards));
  }
  if (!options_.read_db.empty()) {
    ASSIGN_OR_RETURN(links.standby, open_ledger(standby_, Access::kRead, options_.busy_timeout_ms));
  }
  return links;
}

Result<Links> Deployment::open(uint64_t turn) const {
  const int tries = spreads_connections(ledger_.topology) ? ledger_.topology.members() : 1;
  Result<Links> first = open_on(member_for_turn(ledger_.topology, turn));
  for (int tried = 1; tried < tries && !first.is_ok(); ++tried) {
    if (first.status().code() == StatusCode::kUsage ||
        first.status().code() == StatusCode::kInterrupted)
      break;
    Result<Links> next = open_on(member_for_turn(ledger_.topology, turn + tried));
    if (next.is_ok()) return next;
  }
  return first;
}

Status Deployment::check(Links& links) const {
  if (!links.standby.is_open()) return Status::ok();
  return check_standby(links.ledger, links.standby);
}

}  // namespace idemlab
