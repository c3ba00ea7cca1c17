// `idemlab http METHOD PATH`: one HTTP request to the ledger's resources (http/resources.h),
// answered with a status line, headers and a JSON body, and an exit code scripts can test.
#include <fmt/format.h>

#include "cli/command.h"
#include "db/schema/ledger_file.h"
#include "http/resources.h"
#include "report/answer_view.h"

namespace idemlab {

namespace {

struct HttpOptions {
  std::string db = "idemlab.db";
  std::string method;
  std::string path;
  std::string data;  // k=v&k=v
  std::string idempotency_key;
  std::vector<std::string> faults;
  bool json = false;
};

Status parse_form(const std::string& data, std::map<std::string, std::string>* out) {
  for (size_t start = 0; start < data.size();) {
    const size_t end = std::min(data.find('&', start), data.size());
    const std::string pair = data.substr(start, end - start);
    const size_t equals = pair.find('=');
    if (equals == std::string::npos || equals == 0)
      return Status::usage(fmt::format("--data: '{}' is not key=value", pair));
    (*out)[pair.substr(0, equals)] = pair.substr(equals + 1);
    start = end + 1;
  }
  return Status::ok();
}

HttpRequest make_request(const HttpOptions& options) {
  HttpRequest request;
  request.method = options.method;
  request.path = options.path;
  request.idempotency_key = options.idempotency_key;
  throw_if_error(parse_form(options.data, &request.form));
  throw_if_error(parse_faults(options.faults, &request.faults));
  throw_if_error(check_http_request(request));
  return request;
}

ExitCode exit_code_for(const HttpResponse& response) {
  if (!response.lost.empty()) return ExitCode::kRetryable;
  switch (response.status / 100 == 2 ? 200 : response.status) {
    case 200:
      return ExitCode::kOk;
    case 404:
      return ExitCode::kNotFound;
    case 405:
      return ExitCode::kUsage;
    case 409:
      return ExitCode::kInProgress;
    case 422:
      return response.body.value("outcome", "") == "mismatch" ? ExitCode::kMismatch
                                                              : ExitCode::kRejected;
    case 503:
      return ExitCode::kRetryable;
    default:
      return ExitCode::kInternal;
  }
}

// The body's own words for a non-2xx answer: its error, else its reason, else its outcome.
std::string error_message(const nlohmann::ordered_json& body) {
  for (const char* key : {"error", "reason", "outcome"})
    if (body.contains(key) && body[key].is_string()) return body[key].get<std::string>();
  return "";
}

void print_response(const HttpOptions& options, const HttpResponse& response) {
  if (!response.lost.empty()) {
    if (options.json) print_json({{"status", nullptr}, {"lost", response.lost}});
    fmt::print(stderr, "error: timeout: no answer ({}); {} {} may or may not have happened\n",
               response.lost, options.method, options.path);
    return;
  }
  if (options.json) {
    print_json({{"status", response.status},
                {"location", text_or_null(response.location)},
                {"replayed", response.replayed},
                {"body", response.body}});
  } else if (response.status / 100 == 2) {
    fmt::print("{}\n", http_status_line(response.status));
    if (!response.location.empty()) fmt::print("Location: {}\n", response.location);
    if (response.replayed) fmt::print("Idempotent-Replayed: true\n");
    if (response.status != 204) fmt::print("{}\n", response.body.dump());
  }
  if (response.status / 100 != 2)
    fmt::print(stderr, "error: {}: {}\n", http_status_line(response.status),
               error_message(response.body));
}

ExitCode run_http(const HttpOptions& options) {
  const HttpRequest request = make_request(options);
  Connection connection = value_or_throw(open_ledger(options.db, Access::kWrite, 5000));
  WallClock clock;
  HttpResponse response;
  throw_if_error(serve_http(connection, clock, request, &response));
  print_response(options, response);
  return exit_code_for(response);
}

}  // namespace

void register_http(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<HttpOptions>();
  CLI::App* command = app.add_subcommand(
      "http", "one HTTP request: GET, PUT and DELETE are idempotent, POST is not");
  command->add_option("method", options->method, "GET, PUT, DELETE or POST")->required();
  command->add_option("path", options->path, "e.g. /accounts/alice/limit")->required();
  add_db_option(command, &options->db);
  command->add_option("--data", options->data, "the body, e.g. from=alice&to=bob&amount=10.00");
  command->add_option("--idempotency-key", options->idempotency_key,
                      "POST /transfers: the key that makes a retry a repeat");
  command->add_option("--fault", options->faults, "request-lost | response-lost");
  add_json_flag(command, &options->json);
  command->footer(
      "Resources:\n"
      "  GET    /accounts/NAME        balance and limit\n"
      "  PUT    /accounts/NAME/limit  --data amount=50.00: set it (a repeat changes nothing)\n"
      "  DELETE /accounts/NAME/limit  remove it (a repeat finds none: 404, same state)\n"
      "  POST   /transfers            --data from=alice&to=bob&amount=10.00: a new transfer\n"
      "                               each time, unless --idempotency-key names it\n"
      "  GET    /transfers/ID         its state\n"
      "Exit: 0 for 2xx, 9 for 404, 2 for 405, 3 for 422 (4 for a mismatched repeat), 5 for\n"
      "409, 75 when no answer came back.");
  command->callback([options, &result] { result.exit_code = run_http(*options); });
}

}  // namespace idemlab
