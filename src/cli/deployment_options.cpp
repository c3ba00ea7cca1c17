// The deployment a command line names.
#include "cli/deployment_options.h"

#include <fmt/format.h>

#include "cli/errors.h"

namespace idemlab {

void add_read_db_option(CLI::App* command, std::string* read_db, std::string_view what) {
  command
      ->add_option("--read-db", *read_db,
                   fmt::format("send {} to this PostgreSQL standby of --db, as read/write "
                               "splitting would: it may not have replayed the first attempt "
                               "yet (checked first: in recovery, replaying --db's ledger)",
                               what))
      ->envname("IDEMLAB_READ_DB")
      ->check(ledger_locator());
}

void add_attempt_read_options(CLI::App* command, DeploymentFlags* flags) {
  add_read_db_option(command, &flags->read_db, "the reads made outside a write transaction");
  command->add_flag("--read-your-writes", flags->read_your_writes,
                    "with --read-db: trust the standby's \"not found\" only once it has "
                    "replayed past the primary's WAL position; otherwise read on --db");
}

Deployment deployment_of(DeploymentFlags flags, const Strategy* strategy, bool wait_in_process) {
  if (strategy) check_locks_strategy(*strategy, &flags.locks, flags.fence);
  check_lock_store_options(flags.redis, flags.locks, flags.fence);
  if (flags.read_db.empty() && flags.read_your_writes)
    throw_if_error(
        Status::usage("--read-your-writes is for --read-db: the primary always has your writes"));
  DeploymentOptions options;
  options.db = flags.db;
  options.guards = flags.locks.empty() ? flags.redis : flags.locks;
  options.read_db = flags.read_db;
  options.isolation = isolation_option(flags.db, flags.isolation);
  options.busy_timeout_ms = flags.busy_timeout_ms;
  options.wait_in_process = wait_in_process;
  return value_or_throw(Deployment::read(std::move(options)));
}

Links open_checked_links(const Deployment& deployment) {
  Links links = value_or_throw(deployment.open(0));
  throw_if_error(deployment.check(links));
  return links;
}

std::unique_ptr<ReadSplit> read_split_of(Links& links, const DeploymentFlags& flags) {
  if (!links.standby.is_open()) return nullptr;
  return std::make_unique<ReadSplit>(links.standby, links.ledger, flags.read_your_writes);
}

nlohmann::ordered_json reads_json(const ReadSplit& reads) {
  nlohmann::ordered_json out{{"standby", reads.standby_reads()},
                             {"primary", reads.primary_reads()},
                             {"standby_server", reads.location()}};
  out["standby_replayed"] = reads.standby_replayed().empty()
                                ? nlohmann::ordered_json()
                                : nlohmann::ordered_json(reads.standby_replayed());
  return out;
}

std::string reads_text(const ReadSplit& reads) {
  std::string out = fmt::format(" (reads: {} on the standby, {} on the primary",
                                reads.standby_reads(), reads.primary_reads());
  if (reads.primary_reads() > 0)
    out += fmt::format("; the standby had replayed only to {}",
                       reads.standby_replayed().empty() ? "nothing" : reads.standby_replayed());
  return out + ")";
}

}  // namespace idemlab
