// The HTTP resources: a path is matched to a resource, the method to what it does there, and
// each answer is built from what the ledger says afterwards.
#include "http/resources.h"

#include <fmt/format.h>

#include <algorithm>

#include "attempt/direct.h"
#include "ledger/account_limit.h"
#include "ledger/ledger.h"
#include "ledger/money.h"
#include "ledger/request.h"
#include "strategies/strategy.h"

namespace idemlab {

namespace {

enum class Resource { kNone, kAccount, kLimit, kTransfers, kTransfer };

struct Target {
  Resource resource = Resource::kNone;
  std::string id;  // the account name or the transfer's id
};

Target target_of(std::string_view path) {
  std::vector<std::string> parts;
  for (size_t start = 1; start <= path.size();) {
    const size_t end = std::min(path.find('/', start), path.size());
    parts.emplace_back(path.substr(start, end - start));
    start = end + 1;
  }
  if (path.empty() || path[0] != '/' || parts.empty()) return {};
  if (parts[0] == "accounts" && parts.size() == 2) return {Resource::kAccount, parts[1]};
  if (parts[0] == "accounts" && parts.size() == 3 && parts[2] == "limit")
    return {Resource::kLimit, parts[1]};
  if (parts[0] == "transfers" && parts.size() == 1) return {Resource::kTransfers, ""};
  if (parts[0] == "transfers" && parts.size() == 2) return {Resource::kTransfer, parts[1]};
  return {};
}

std::string_view allowed_methods(Resource resource) {
  switch (resource) {
    case Resource::kAccount:
    case Resource::kTransfer:
      return "GET";
    case Resource::kLimit:
      return "PUT, DELETE";
    case Resource::kTransfers:
      return "POST";
    case Resource::kNone:
      break;
  }
  return "";
}

bool allows(Resource resource, std::string_view method) {
  const std::string_view allowed = allowed_methods(resource);
  return !method.empty() && allowed.find(method) != std::string_view::npos;
}

std::string form_value(const HttpRequest& request, const std::string& key) {
  auto found = request.form.find(key);
  return found == request.form.end() ? std::string() : found->second;
}

Status require_amount(const HttpRequest& request, int64_t* out) {
  const std::string amount = form_value(request, "amount");
  if (amount.empty())
    return Status::usage(fmt::format("{} {} needs amount=", request.method, request.path));
  return parse_amount(amount, false, out);
}

bool has_fault(const HttpRequest& request, FaultKind kind) {
  return std::any_of(request.faults.begin(), request.faults.end(),
                     [&](const FaultSpec& fault) { return fault.kind == kind; });
}

HttpResponse error_response(int status, std::string message) {
  HttpResponse out;
  out.status = status;
  out.body = {{"error", std::move(message)}};
  return out;
}

}  // namespace

Status check_http_request(const HttpRequest& request) {
  for (const FaultSpec& fault : request.faults)
    if (fault.kind != FaultKind::kRequestLost && fault.kind != FaultKind::kResponseLost)
      return Status::usage(
          fmt::format("http takes request-lost or response-lost, not {}", fault.text));
  if (request.path.empty() || request.path[0] != '/')
    return Status::usage(fmt::format("a path starts with /, not '{}'", request.path));
  if (!request.idempotency_key.empty()) RETURN_IF_ERROR(validate_biz_seq(request.idempotency_key));
  const Target target = target_of(request.path);
  if (!allows(target.resource, request.method)) return Status::ok();  // 404 or 405
  int64_t amount = 0;
  if (target.resource == Resource::kLimit && request.method == "PUT")
    return require_amount(request, &amount);
  if (target.resource != Resource::kTransfers) return Status::ok();
  for (const char* key : {"from", "to"})
    if (Status status = validate_account_name(form_value(request, key)); !status.is_ok())
      return Status::usage(fmt::format("POST /transfers: {}=: {}", key, status.message()));
  return require_amount(request, &amount);
}

namespace {

nlohmann::ordered_json limit_json(const std::optional<int64_t>& limit) {
  if (!limit) return nullptr;
  return format_amount(*limit);
}

Status get_account(Connection& connection, const std::string& name, HttpResponse* out) {
  std::vector<AccountBalance> accounts;
  RETURN_IF_ERROR(list_accounts(connection, &accounts));
  auto found = std::find_if(accounts.begin(), accounts.end(),
                            [&](const AccountBalance& account) { return account.name == name; });
  if (found == accounts.end()) {
    *out = error_response(404, fmt::format("no account {}", name));
    return Status::ok();
  }
  LimitResult limit;
  RETURN_IF_ERROR(read_limit(connection, name, &limit));
  out->status = 200;
  out->body = {{"account", name},
               {"balance", format_amount(found->balance_minor)},
               {"limit", limit_json(limit.after_minor)}};
  return Status::ok();
}

Status change_account_limit(Connection& connection, const Clock& clock, const HttpRequest& request,
                            const std::string& name, HttpResponse* out) {
  const bool put = request.method == "PUT";
  int64_t amount = 0;
  if (put) RETURN_IF_ERROR(require_amount(request, &amount));
  LimitResult result;
  RETURN_IF_ERROR(change_limit(connection, clock, put ? LimitChange::kSet : LimitChange::kRemove,
                               name, amount, &result));
  if (!result.account_found) {
    *out = error_response(404, fmt::format("no account {}", name));
  } else if (!put && !result.before_minor) {
    *out = error_response(404, fmt::format("{} has no limit (any more)", name));
  } else {
    out->status = put ? 200 : 204;
    if (put)
      out->body = {{"account", name},
                   {"limit", limit_json(result.after_minor)},
                   {"was", limit_json(result.before_minor)}};
  }
  return Status::ok();
}

// Without a key the server names the new transfer itself, p<n> where n - 1 transfers came
// over http before it, so a retried POST is a new transfer; with one, the key is its name and
// select-insert's unique index turns a repeat into a replay. (Two POSTs racing without a key
// can be given the same name; the second is then answered as the first's repeat.)
Status next_transfer_id(Connection& connection, std::string* out) {
  StepResult result =
      connection.query("SELECT count(*) FROM transfer_flow WHERE source = :source",
                       {{":source", std::string(kHttpSource)}},
                       [&](const Row& row) { *out = fmt::format("p{}", as_int(row[0]) + 1); });
  return result.ok() ? Status::ok() : step_error(connection, result);
}

int transfer_status(const Answer& answer) {
  switch (answer.outcome) {
    case Outcome::kApplied:
      return answer.replayed ? 200 : 201;
    case Outcome::kRejected:
    case Outcome::kMismatch:
      return 422;
    case Outcome::kInProgress:
      return 409;
    case Outcome::kBusy:
      return 503;
    default:
      return 500;
  }
}

Status post_transfer(Connection& connection, const Clock& clock, const HttpRequest& request,
                     HttpResponse* out) {
  AttemptSetup setup;
  setup.strategy = find_strategy("select-insert");
  setup.request.source = std::string(kHttpSource);
  setup.request.from = form_value(request, "from");
  setup.request.to = form_value(request, "to");
  RETURN_IF_ERROR(require_amount(request, &setup.request.amount_minor));
  setup.request.biz_seq = request.idempotency_key;
  if (setup.request.biz_seq.empty())
    RETURN_IF_ERROR(next_transfer_id(connection, &setup.request.biz_seq));
  setup.faults = request.faults;
  AttemptReport report;
  RETURN_IF_ERROR(run_direct_attempt(connection, clock, setup, &report));
  if (report.answer.outcome == Outcome::kTimeout) {
    out->lost = report.answer.reason == reason::kRequestLost ? "request-lost" : "response-lost";
    return Status::ok();
  }
  out->status = transfer_status(report.answer);
  out->replayed = report.answer.replayed;
  out->location = fmt::format("/transfers/{}", setup.request.biz_seq);
  out->body = {
      {"id", setup.request.biz_seq},
      {"outcome", outcome_name(report.answer.outcome)},
      {"reason", report.answer.reason.empty() ? nlohmann::ordered_json()
                                              : nlohmann::ordered_json(report.answer.reason)},
      {"replayed", report.answer.replayed}};
  return Status::ok();
}

Status get_transfer(Connection& connection, const std::string& id, HttpResponse* out) {
  RequestStatus status;
  RETURN_IF_ERROR(query_request(connection, std::string(kHttpSource), id, &status));
  if (status.state == RequestState::kNotFound) {
    *out = error_response(404, fmt::format("no transfer {}", id));
    return Status::ok();
  }
  out->status = 200;
  out->body = {{"id", id}, {"state", request_state_name(status.state)}};
  return Status::ok();
}

Status dispatch(Connection& connection, const Clock& clock, const HttpRequest& request,
                const Target& target, HttpResponse* out) {
  switch (target.resource) {
    case Resource::kAccount:
      return get_account(connection, target.id, out);
    case Resource::kLimit:
      return change_account_limit(connection, clock, request, target.id, out);
    case Resource::kTransfers:
      return post_transfer(connection, clock, request, out);
    case Resource::kTransfer:
      return get_transfer(connection, target.id, out);
    case Resource::kNone:
      break;
  }
  return Status::internal("no resource to serve");
}

}  // namespace

Status serve_http(Connection& connection, const Clock& clock, const HttpRequest& request,
                  HttpResponse* out) {
  *out = HttpResponse{};
  const Target target = target_of(request.path);
  if (target.resource == Resource::kNone) {
    *out = error_response(404, fmt::format("no resource at {}", request.path));
    return Status::ok();
  }
  if (!allows(target.resource, request.method)) {
    *out = error_response(
        405, fmt::format("{} takes {}", request.path, allowed_methods(target.resource)));
    out->allow = std::string(allowed_methods(target.resource));
    return Status::ok();
  }
  if (has_fault(request, FaultKind::kRequestLost) && target.resource != Resource::kTransfers) {
    out->lost = "request-lost";
    return Status::ok();
  }
  RETURN_IF_ERROR(dispatch(connection, clock, request, target, out));
  if (has_fault(request, FaultKind::kResponseLost) && out->lost.empty()) {
    *out = HttpResponse{};
    out->lost = "response-lost";
  }
  return Status::ok();
}

std::string http_status_line(int status) {
  switch (status) {
    case 200:
      return "200 OK";
    case 201:
      return "201 Created";
    case 204:
      return "204 No Content";
    case 404:
      return "404 Not Found";
    case 405:
      return "405 Method Not Allowed";
    case 409:
      return "409 Conflict";
    case 422:
      return "422 Unprocessable Content";
    case 503:
      return "503 Service Unavailable";
    default:
      return fmt::format("{} Internal Server Error", status);
  }
}

}  // namespace idemlab
