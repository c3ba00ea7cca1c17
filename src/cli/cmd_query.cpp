// `idemlab query`: what the server can tell a client that asks before it retries
// (query-before-retry): not_found, processing, succeeded or failed, each with its exit code.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/deployment_options.h"
#include "core/limits.h"
#include "core/quote.h"
#include "db/replication.h"
#include "db/schema/ledger_file.h"
#include "ledger/ledger.h"
#include "ledger/request.h"
#include "report/answer_view.h"

namespace idemlab {

namespace {

struct QueryOptions {
  std::string db = "idemlab.db";
  std::string source{kDefaultSource};
  std::string biz_seq;
  bool json = false;
  std::string read_db;                   // --read-db: a standby, as read/write splitting reads
  std::optional<std::string> after_lsn;  // --read-your-writes LSN
};

// Where the answer came from, when --read-db asked a standby: which server, and why.
struct Source {
  std::string by;        // "standby" or "primary"; a cluster's node name; "" otherwise
  std::string replayed;  // how far the standby had replayed, with --read-your-writes
  bool node = false;     // `by` is a cluster's node
  std::string text(RequestState state) const;
};

std::string Source::text(RequestState state) const {
  if (by.empty()) return "";
  if (node && state == RequestState::kSucceeded) return fmt::format(" (answered by {})", by);
  if (node)
    return fmt::format(
        " (answered by {}: with wsrep_sync_wait=0 a node may not have applied the "
        "cluster's latest commits)",
        by);
  if (by == "primary")
    return fmt::format(" (answered by the primary: the standby had replayed only to {})",
                       replayed.empty() ? "nothing" : replayed);
  if (!replayed.empty())
    return fmt::format(" (answered by the standby, replayed to {}: past your write)", replayed);
  return " (answered by the standby, which may lag behind the primary)";
}

// The ledger to ask: the standby --read-db names, unless --read-your-writes finds it behind the
// client's own write (its LSN), and then the primary.
Connection ledger_to_ask(const QueryOptions& options, Source* source) {
  const auto open = [](const std::string& db) {
    return value_or_throw(open_ledger(db, Access::kRead, defaults::kBusyTimeoutMs));
  };
  Connection primary = open(options.db);
  if (options.read_db.empty()) return primary;
  Connection standby = open(options.read_db);
  throw_if_error(check_standby(primary, standby));  // it replays this ledger, or is refused
  source->by = "standby";
  if (!options.after_lsn) return standby;
  bool past = false;
  throw_if_error(replayed_past(standby, *options.after_lsn, &past, &source->replayed));
  if (past) return standby;
  source->by = "primary";
  return primary;
}

// --read-db names a PostgreSQL standby; --read-your-writes a WAL position, and needs --read-db.
void check_read_options(const QueryOptions& options) {
  if (options.after_lsn && options.read_db.empty())
    throw_if_error(
        Status::usage("--read-your-writes is for --read-db: the primary always has "
                      "your writes"));
  if (options.after_lsn && !is_commit_position(*options.after_lsn))
    throw_if_error(Status::usage(
        fmt::format("--read-your-writes {}: expected a WAL position such as 0/3000060 (an answer's "
                    "commit_lsn)",
                    in_quotes(*options.after_lsn))));
  if (options.read_db.empty()) return;
  Locator ledger, standby;
  throw_if_error(parse_locator(options.db, &ledger));
  throw_if_error(parse_locator(options.read_db, &standby));
  throw_if_error(check_standby_url(ledger, standby));
}

ExitCode exit_code_for(RequestState state) {
  switch (state) {
    case RequestState::kSucceeded:
      return ExitCode::kOk;
    case RequestState::kFailed:
      return ExitCode::kRejected;
    case RequestState::kProcessing:
      return ExitCode::kInProgress;
    case RequestState::kNotFound:
      return ExitCode::kNotFound;
  }
  return ExitCode::kInternal;
}

// A not_found answer, and the sources that do hold this biz_seq: a request sent over HTTP is
// source "http" unless it said otherwise.
std::string not_found_text(const std::string& biz_seq, const std::vector<std::string>& sources) {
  std::string out = fmt::format(
      "not_found: the server has no record of {}; it was lost, or has not been written yet (a "
      "slow attempt may still be running)",
      biz_seq);
  if (!sources.empty())
    out += fmt::format("; source {} holds a request {}: --source {}", fmt::join(sources, ", "),
                       biz_seq, sources.front());
  return out;
}

std::string query_text(const std::string& biz_seq, const RequestStatus& status) {
  switch (status.state) {
    case RequestState::kSucceeded:
      return fmt::format("succeeded: {} moved money ({}); do not retry", biz_seq, status.strategy);
    case RequestState::kFailed:
      return fmt::format("failed: {} was rejected ({}); do not retry", biz_seq, status.reason);
    case RequestState::kProcessing:
      return fmt::format("processing: {} is under way; ask again later", biz_seq);
    case RequestState::kNotFound:
      break;
  }
  return "";
}

ExitCode run_query(const QueryOptions& options) {
  throw_if_error(validate_biz_seq(options.biz_seq));
  throw_if_error(validate_source(options.source));
  check_read_options(options);
  Source source;
  Connection connection = ledger_to_ask(options, &source);
  if (source.by.empty() && !connection.node().empty()) {  // a node of a Galera cluster
    source.by = connection.node();
    source.node = true;
  }
  RequestStatus status;
  throw_if_error(query_request(connection, options.source, options.biz_seq, &status));
  const ExitCode code = exit_code_for(status.state);
  std::vector<std::string> sources;  // other sources that hold this biz_seq
  if (status.state == RequestState::kNotFound)
    throw_if_error(sources_with_biz_seq(connection, options.biz_seq, &sources));
  const std::string text = status.state == RequestState::kNotFound
                               ? not_found_text(options.biz_seq, sources)
                               : query_text(options.biz_seq, status);
  if (options.json) {
    nlohmann::ordered_json out{{"source", options.source},
                               {"biz_seq", options.biz_seq},
                               {"state", request_state_name(status.state)},
                               {"strategy", text_or_null(status.strategy)},
                               {"reason", text_or_null(status.reason)},
                               {"flow_rows", status.flow_rows}};
    if (status.state == RequestState::kNotFound) out["other_sources"] = sources;
    if (!source.by.empty()) out["answered_by"] = source.by;
    if (!source.replayed.empty()) out["standby_replayed"] = source.replayed;
    print_json(out);
  } else if (code == ExitCode::kOk) {
    fmt::print("{}{}\n", text, source.text(status.state));
  } else {
    fmt::print(stderr, "error: {}{}\n", printable(text), source.text(status.state));
  }
  return code;
}

}  // namespace

void register_query(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<QueryOptions>();
  CLI::App* command = app.add_subcommand(
      "query",
      "ask for a request's state before retrying: not_found, processing, succeeded, "
      "failed");
  add_db_option(command, &options->db);
  add_source_option(command, &options->source);
  command->add_option("--biz-seq", options->biz_seq, "the request's id")->required();
  add_read_db_option(command, &options->read_db, "the question");
  command->add_option("--read-your-writes", options->after_lsn,
                      "with --read-db: trust the standby only once it has replayed past this "
                      "WAL position (the commit_lsn an answer gave); otherwise ask --db");
  add_json_flag(command, &options->json);
  command->footer(
      "Answers: succeeded (exit 0), failed (3), processing (5), not_found (9). A request is its\n"
      "source and biz_seq together: not_found names the other sources that hold the biz_seq.\n"
      "not_found does not mean lost: on a slow server the first attempt may not have written\n"
      "yet, and a retry then moves the money again. Only an idempotent server makes the retry\n"
      "safe (see: idemlab simulate --strategy naive --scenario query-first-slow).\n");
  command->callback([options, &result] { result.exit_code = run_query(*options); });
}

}  // namespace idemlab
