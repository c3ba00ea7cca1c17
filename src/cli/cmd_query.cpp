// `idemlab query`: what the server can tell a client that asks before it retries
// (query-before-retry): not_found, processing, succeeded or failed, each with its exit code.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/limits.h"
#include "core/quote.h"
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
};

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
  Connection connection =
      value_or_throw(open_ledger(options.db, Access::kRead, defaults::kBusyTimeoutMs));
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
    print_json(out);
  } else if (code == ExitCode::kOk) {
    fmt::print("{}\n", text);
  } else {
    fmt::print(stderr, "error: {}\n", printable(text));
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
