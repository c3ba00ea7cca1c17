// The standby a client reads from.
#include "cli/read_options.h"

#include <fmt/format.h>

#include "cli/errors.h"
#include "db/schema/ledger_file.h"

namespace idemlab {

void add_read_db_option(CLI::App* command, std::string* read_db, std::string_view what) {
  command
      ->add_option("--read-db", *read_db,
                   fmt::format("send {} to this PostgreSQL standby, as read/write splitting "
                               "would: it may not have replayed the first attempt yet",
                               what))
      ->envname("IDEMLAB_READ_DB")
      ->check(ledger_locator());
}

void check_read_db(const std::string& read_db) {
  if (read_db.empty()) return;
  Locator locator;
  throw_if_error(parse_locator(read_db, &locator));
  if (locator.engine != Engine::kPostgres)
    throw_if_error(Status::usage("--read-db names a PostgreSQL standby (postgresql://...)"));
}

void add_attempt_read_options(CLI::App* command, std::string* read_db, bool* read_your_writes) {
  add_read_db_option(command, read_db, "the reads made outside a write transaction");
  command->add_flag("--read-your-writes", *read_your_writes,
                    "with --read-db: trust the standby's \"not found\" only once it has "
                    "replayed past the primary's WAL position; otherwise read on --db");
}

namespace {

Status attempt_reads_usable(const std::string& read_db, bool read_your_writes, Engine primary) {
  if (read_db.empty() && read_your_writes)
    return Status::usage("--read-your-writes is for --read-db: the primary always has your writes");
  if (!read_db.empty() && primary != Engine::kPostgres)
    return Status::usage("--read-db is a standby of a PostgreSQL --db");
  return Status::ok();
}

}  // namespace

void check_attempt_reads(const std::string& read_db, bool read_your_writes, const std::string& db) {
  check_read_db(read_db);
  Locator locator;
  throw_if_error(parse_locator(db, &locator));
  throw_if_error(attempt_reads_usable(read_db, read_your_writes, locator.engine));
}

std::unique_ptr<ReadSplit> open_read_split(const std::string& read_db, bool read_your_writes,
                                           Connection& primary) {
  check_read_db(read_db);
  throw_if_error(attempt_reads_usable(read_db, read_your_writes, primary.engine()));
  if (read_db.empty()) return nullptr;
  Connection standby =
      value_or_throw(open_ledger(read_db, Access::kRead, defaults::kBusyTimeoutMs));
  return std::make_unique<ReadSplit>(std::move(standby), primary, read_your_writes);
}

nlohmann::ordered_json reads_json(const ReadSplit& reads) {
  nlohmann::ordered_json out{{"standby", reads.standby_reads()},
                             {"primary", reads.primary_reads()}};
  out["standby_replayed"] = reads.standby_replayed().empty()
                                ? nlohmann::ordered_json()
                                : nlohmann::ordered_json(reads.standby_replayed());
  return out;
}

std::string reads_text(const ReadSplit& reads) {
  std::string out = fmt::format(" (reads: {} on the standby, {} on the primary",
                                reads.standby_reads(), reads.primary_reads());
  if (reads.primary_reads() > 0)
    out += fmt::format("; the standby had replayed only to {}", reads.standby_replayed());
  return out + ")";
}

}  // namespace idemlab
