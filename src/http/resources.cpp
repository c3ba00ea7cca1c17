// The ledger's resources: a path is matched to a resource, the method to what it does there.
#include "http/resources.h"

#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>

#include "attempt/request_fields.h"
#include "core/quote.h"
#include "http/json_text.h"
#include "http/problem.h"
#include "ledger/account_limit.h"
#include "ledger/ledger.h"
#include "ledger/money.h"

namespace idemlab {

namespace {

enum class Resource { kNone, kAccounts, kAccount, kLimit, kTransfer };

struct Target {
  Resource resource = Resource::kNone;
  std::string id;  // the account name or the transfer's id
};

Target target_of(std::string_view path) {
  if (path.empty() || path[0] != '/') return {};
  std::array<std::string_view, 3> parts;  // no resource is deeper
  size_t count = 0;
  for (size_t start = 1; start <= path.size();) {
    const size_t end = std::min(path.find('/', start), path.size());
    if (count == parts.size()) return {};
    parts[count++] = path.substr(start, end - start);
    start = end + 1;
  }
  if (parts[0] == "accounts" && count == 1) return {Resource::kAccounts, ""};
  if (parts[0] == "accounts" && count == 2 && !parts[1].empty())
    return {Resource::kAccount, std::string(parts[1])};
  if (parts[0] == "accounts" && count == 3 && parts[2] == "limit")
    return {Resource::kLimit, std::string(parts[1])};
  if (parts[0] == "transfers" && count == 2 && !parts[1].empty())
    return {Resource::kTransfer, std::string(parts[1])};
  return {};
}

std::string_view allowed_methods(Resource resource) {
  return resource == Resource::kLimit ? "PUT, DELETE" : "GET, HEAD";
}

bool allows(Resource resource, std::string_view method) {
  const std::string_view allowed = allowed_methods(resource);
  return !method.empty() && allowed.find(method) != std::string_view::npos;
}

HttpReply json_reply(int status, std::string body) {
  HttpReply reply;
  reply.status = status;
  reply.headers = {{"Content-Type", "application/json"}};
  reply.body = std::move(body);
  return reply;
}

HttpReply json_reply(int status, const nlohmann::ordered_json& body) {
  return json_reply(status, json_body(body));
}

nlohmann::ordered_json limit_json(const std::optional<int64_t>& limit) {
  if (!limit) return nullptr;
  return format_amount(*limit);
}

HttpReply not_found(std::string detail) {
  return problem_reply(Problem::kNotFound, detail);
}

Result<std::vector<AccountBalance>> accounts_of(Connection& ledger) {
  std::vector<AccountBalance> accounts;
  RETURN_IF_ERROR(list_accounts(ledger, &accounts));
  return accounts;
}

Result<HttpReply> get_accounts(Connection& ledger) {
  ASSIGN_OR_RETURN(const std::vector<AccountBalance> accounts, accounts_of(ledger));
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const AccountBalance& account : accounts)
    list.push_back({{"account", account.name}, {"balance", format_amount(account.balance_minor)}});
  return json_reply(200, {{"accounts", list}});
}

Result<HttpReply> get_account(Connection& ledger, const std::string& name) {
  AccountView account;
  RETURN_IF_ERROR(read_account(ledger, name, &account));
  if (!account.found) return not_found(fmt::format("no account {}", in_quotes(name)));
  JsonObjectText body;
  body.string("account", name).string("balance", format_amount(account.balance_minor));
  if (account.limit_minor)
    body.string("limit", format_amount(*account.limit_minor));
  else
    body.null("limit");
  return json_reply(200, std::move(body).body());
}

// PUT's body: exactly amount=, a positive amount.
Result<int64_t> limit_amount(const HttpMessage& message) {
  RequestFields fields;
  std::string why;
  static constexpr std::array<std::string_view, 1> kNames{"amount"};
  std::vector<std::string> values;
  std::vector<bool> given;
  if (!read_form_fields(message.body, &fields, &why) ||
      !pick_fields(fields, kNames, &values, &given, &why))
    return Status::usage(why);
  if (!given[0]) return Status::usage(fmt::format("PUT {} needs amount=", message.path));
  int64_t amount = 0;
  RETURN_IF_ERROR(parse_amount(values[0], false, &amount));
  return amount;
}

Result<HttpReply> change_account_limit(Connection& ledger, const Clock& clock,
                                       const HttpMessage& message, const std::string& name) {
  const bool put = message.method == "PUT";
  int64_t amount = 0;
  if (put) {
    Result<int64_t> asked = limit_amount(message);
    if (!asked.is_ok()) return problem_reply(Problem::kInvalidField, asked.status().message());
    amount = *asked;
  }
  LimitResult result;
  RETURN_IF_ERROR(change_limit(ledger, clock, put ? LimitChange::kSet : LimitChange::kRemove, name,
                               amount, &result));
  if (!result.account_found) return not_found(fmt::format("no account {}", in_quotes(name)));
  if (!put && !result.before_minor)
    return not_found(fmt::format("{} has no limit (any more)", in_quotes(name)));
  if (!put) return HttpReply{204, {}, "", false};
  return json_reply(200, {{"account", name},
                          {"limit", limit_json(result.after_minor)},
                          {"was", limit_json(result.before_minor)}});
}

Result<HttpReply> get_transfer(Connection& ledger, const std::string& id) {
  RequestStatus status;
  RETURN_IF_ERROR(query_request(ledger, std::string(kHttpSource), id, &status));
  if (status.state == RequestState::kNotFound)
    return not_found(fmt::format("no transfer {}", in_quotes(id)));
  JsonObjectText body;
  body.string("id", id).string("state", request_state_name(status.state));
  return json_reply(200, std::move(body).body());
}

Result<HttpReply> dispatch(Connection& ledger, const Clock& clock, const HttpMessage& message,
                           const Target& target) {
  switch (target.resource) {
    case Resource::kAccounts:
      return get_accounts(ledger);
    case Resource::kAccount:
      return get_account(ledger, target.id);
    case Resource::kLimit:
      return change_account_limit(ledger, clock, message, target.id);
    case Resource::kTransfer:
      return get_transfer(ledger, target.id);
    case Resource::kNone:
      break;
  }
  return Status::internal("no resource to answer");
}

}  // namespace

std::optional<HttpReply> resource_refusal(const HttpMessage& message) {
  const Target target = target_of(message.path);
  if (target.resource == Resource::kNone)
    return not_found(fmt::format("no resource at {}", in_quotes(message.path)));
  if (!allows(target.resource, message.method))
    return problem_reply(
        Problem::kMethodNotAllowed,
        fmt::format("{} takes {}", printable(message.path), allowed_methods(target.resource)),
        {{"Allow", std::string(allowed_methods(target.resource))}});
  return std::nullopt;
}

HttpReply answer_resource(Connection& ledger, const Clock& clock, const HttpMessage& message) {
  Result<HttpReply> reply = dispatch(ledger, clock, message, target_of(message.path));
  return reply.is_ok() ? std::move(reply).value() : status_reply(reply.status());
}

}  // namespace idemlab
