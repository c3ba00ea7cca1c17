// `idemlab http METHOD PATH`: one HTTP request to the transfer endpoint, answered in this
// process by the same handler `idemlab serve` runs (http/transfer_server.h), then printed: the
// status line, the headers a client acts on, the body; and an exit code from the one table.
#include <fmt/format.h>

#include "attempt/fault_check.h"
#include "cli/command.h"
#include "cli/deployment_options.h"
#include "cli/errors.h"
#include "http/problem.h"
#include "http/transfer_input.h"
#include "http/transfer_server.h"
#include "report/answer_view.h"

namespace idemlab {

namespace {

struct HttpOptions {
  std::string db = "idemlab.db";
  std::string method;
  std::string path;
  std::string data;  // a form (k=v&k=v), or a JSON object
  std::optional<std::string> idempotency_key;
  std::string strategy = "select-insert";
  std::vector<std::string> faults;
  bool json = false;
};

// The message serve's listener would have read.
HttpMessage make_message(const HttpOptions& options) {
  HttpMessage message;
  message.method = options.method;
  message.path = options.path;
  if (message.path.empty() || message.path[0] != '/')
    throw_if_error(Status::usage(fmt::format("a path starts with /, not '{}'", options.path)));
  if (options.idempotency_key) {
    std::string key, why;  // named as the option the user typed, not as the header it becomes
    if (!parse_idempotency_key(*options.idempotency_key, &key, &why, "--idempotency-key"))
      throw_if_error(Status::usage(why));
    message.headers.emplace("idempotency-key", *options.idempotency_key);
  }
  const bool json = !options.data.empty() && options.data.front() == '{';
  message.headers.emplace("content-type",
                          json ? "application/json" : "application/x-www-form-urlencoded");
  message.body = options.data;
  return message;
}

TransferServer make_server(const HttpOptions& options) {
  ServeSettings settings;
  settings.strategy = find_strategy(options.strategy);
  settings.fault_log = FaultLog::kNone;  // the answer below says what a fault did
  DeploymentFlags flags;
  flags.db = options.db;
  Deployment deployment = deployment_of(flags, settings.strategy);
  return TransferServer(std::move(settings), std::move(deployment), 1);
}

ExitCode exit_code_of(const HttpReply& reply) {
  if (reply.status / 100 == 2) return ExitCode::kOk;
  const nlohmann::json body = nlohmann::json::parse(reply.body, nullptr, false);
  const std::string type = body.is_object() ? body.value("type", "") : "";
  const ProblemInfo* problem = find_problem(type.substr(type.rfind('/') + 1));
  return problem ? problem->exit_code : ExitCode::kInternal;
}

void print_reply(const HttpOptions& options, const HttpReply& reply) {
  const bool head = options.method == "HEAD";
  if (options.json) {
    nlohmann::ordered_json headers = nlohmann::ordered_json::object();
    for (const auto& [name, value] : reply.headers) headers[name] = value;
    const nlohmann::json body = nlohmann::json::parse(reply.body, nullptr, false);
    print_json({{"status", reply.status},
                {"headers", headers},
                {"body", head || reply.body.empty() ? nlohmann::ordered_json(nullptr)
                         : body.is_discarded()      ? nlohmann::ordered_json(reply.body)
                                                    : nlohmann::ordered_json(body)}});
    return;
  }
  if (reply.status / 100 != 2) {
    const nlohmann::json body = nlohmann::json::parse(reply.body, nullptr, false);
    const std::string detail = body.is_object() ? body.value("detail", "") : "";
    fmt::print(stderr, "error: {} ({})\n", detail.empty() ? http_status_line(reply.status) : detail,
               http_status_line(reply.status));
    return;
  }
  fmt::print("{}\n", http_status_line(reply.status));
  for (const auto& [name, value] : reply.headers)
    if (name != "Content-Type") fmt::print("{}: {}\n", name, value);
  if (!head && !reply.body.empty()) fmt::print("{}", reply.body);
}

ExitCode run_http(const HttpOptions& options) {
  const HttpMessage message = make_message(options);
  std::vector<FaultSpec> faults;
  throw_if_error(parse_faults(options.faults, &faults));
  throw_if_error(check_faults(Surface::kHttp, faults, nullptr, Pitfall::kNone));
  TransferServer server = make_server(options);
  throw_if_error(server.pool().acquire().status());  // a missing or foreign ledger stops here
  const HttpReply reply = server.handle(message, &faults);
  if (reply.drop) {
    if (options.json) print_json({{"status", nullptr}, {"lost", faults.front().text}});
    fmt::print(stderr, "error: timeout: no answer ({}); {} {} may or may not have happened\n",
               faults.front().text, options.method, options.path);
    return ExitCode::kRetryable;
  }
  print_reply(options, reply);
  return exit_code_of(reply);
}

}  // namespace

void register_http(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<HttpOptions>();
  CLI::App* command =
      app.add_subcommand("http", "one HTTP request to serve's endpoint, answered in this process");
  command->add_option("method", options->method, "GET, HEAD, PUT, DELETE or POST")->required();
  command->add_option("path", options->path, "e.g. /accounts/alice/limit")->required();
  add_db_option(command, &options->db);
  command->add_option("--data", options->data,
                      "the body: a form (from=alice&to=bob&amount=10.00) or a JSON object");
  command->add_option("--idempotency-key", options->idempotency_key,
                      "POST /transfers: the key that makes a retry a repeat");
  command
      ->add_option("--strategy", options->strategy,
                   "the strategy POST /transfers runs (default select-insert)")
      ->check(CLI::IsMember(strategy_names()));
  command->add_option("--fault", options->faults, fault_help(Surface::kHttp));
  add_json_flag(command, &options->json);
  command->footer(
      "Resources (as idemlab serve answers them):\n"
      "  GET    /accounts             the balances\n"
      "  GET    /accounts/NAME        balance and limit\n"
      "  PUT    /accounts/NAME/limit  --data amount=50.00: set it (a repeat changes nothing)\n"
      "  DELETE /accounts/NAME/limit  remove it (a repeat finds none: 404, same state)\n"
      "  POST   /transfers            --data from=alice&to=bob&amount=10.00: a new transfer\n"
      "                               each time, unless --idempotency-key names it; a repeat\n"
      "                               is answered with the first status and body again\n"
      "  GET    /transfers/ID         its state\n"
      "A problem's exit code is the one its type names (GET /problems lists them); 75 when no "
      "answer came back.\n");
  command->callback([options, &result] { result.exit_code = run_http(*options); });
}

}  // namespace idemlab
