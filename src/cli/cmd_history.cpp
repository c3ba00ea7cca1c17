// `idemlab history`: the attempts log.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/errors.h"
#include "core/limits.h"
#include "db/schema/ledger_file.h"
#include "ledger/ledger.h"
#include "ledger/request.h"
#include "report/answer_view.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct HistoryOptions {
  std::string db = "idemlab.db";
  AttemptFilter filter;
  bool json = false;
};

// One row an attempt. On a server, a column says at which isolation level each ran; a SQLite
// ledger's table has none (it has no levels to choose from). On a Galera cluster another names
// the node that served each.
TextTable history_table(const std::vector<AttemptRecord>& attempts) {
  const bool on_server = std::any_of(attempts.begin(), attempts.end(),
                                     [](const AttemptRecord& a) { return !a.isolation.empty(); });
  const bool on_cluster = std::any_of(attempts.begin(), attempts.end(),
                                      [](const AttemptRecord& a) { return !a.node.empty(); });
  TextTable table{{"id", "source", "biz_seq", "strategy", "outcome", "reason", "replayed", "fault"},
                  {true},
                  {}};
  if (on_server) table.header.push_back("isolation");
  if (on_cluster) table.header.push_back("node");
  for (const auto& a : attempts) {
    table.rows.push_back({std::to_string(a.id), a.source, a.biz_seq,
                          a.strategy + (a.pitfall.empty() ? "" : " --pitfall=" + a.pitfall),
                          a.outcome, a.reason, a.replayed ? "yes" : "no", a.fault});
    if (on_server) table.rows.back().push_back(a.isolation);
    if (on_cluster) table.rows.back().push_back(a.node);
  }
  return table;
}

ExitCode run_history(const HistoryOptions& options) {
  if (options.filter.biz_seq) throw_if_error(validate_biz_seq(*options.filter.biz_seq));
  if (options.filter.source) throw_if_error(validate_source(*options.filter.source));
  Connection connection =
      value_or_throw(open_ledger(options.db, Access::kRead, defaults::kBusyTimeoutMs));
  std::vector<AttemptRecord> attempts;
  throw_if_error(list_attempts(connection, options.filter, &attempts));
  int64_t total = 0;
  throw_if_error(count_attempts(connection, options.filter, &total));
  const int64_t left_out = total - static_cast<int64_t>(attempts.size());
  if (options.json) {
    nlohmann::ordered_json out{
        {"attempts", nlohmann::ordered_json::array()}, {"total", total}, {"left_out", left_out}};
    for (const auto& a : attempts)
      out["attempts"].push_back({{"id", a.id},
                                 {"source", a.source},
                                 {"biz_seq", a.biz_seq},
                                 {"strategy", a.strategy},
                                 {"pitfall", text_or_null(a.pitfall)},
                                 {"outcome", a.outcome},
                                 {"reason", text_or_null(a.reason)},
                                 {"replayed", a.replayed},
                                 {"fault", text_or_null(a.fault)},
                                 {"at_ms", a.at_ms},
                                 {"isolation", text_or_null(a.isolation)},
                                 {"node", text_or_null(a.node)}});
    print_json(out);
    return ExitCode::kOk;
  }
  fmt::print("{}", history_table(attempts).render());
  if (left_out > 0)
    fmt::print("{}", wrap(fmt::format("the newest {} of {}; {} older left out (--limit N shows "
                                      "more)",
                                      attempts.size(), count_of(total, "attempt"), left_out),
                          0));
  return ExitCode::kOk;
}

}  // namespace

void register_history(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<HistoryOptions>();
  CLI::App* command = app.add_subcommand("history", "show attempts and their answers");
  add_db_option(command, &options->db);
  command->add_option("--source", options->filter.source, "only this source's requests");
  command->add_option("--biz-seq", options->filter.biz_seq, "only this request");
  command->add_option("--limit", options->filter.limit, "show the most recent N attempts")
      ->check(whole_number(1, limits::kMaxHistoryRows))
      ->capture_default_str();
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_history(*options); });
}

}  // namespace idemlab
