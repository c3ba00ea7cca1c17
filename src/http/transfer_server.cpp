// Routing a request to what answers it, and one attempt per POST /transfers.
#include "http/transfer_server.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "core/parse.h"
#include "http/pay_page.h"
#include "http/problem.h"
#include "http/resources.h"
#include "http/secret.h"
#include "http/transfer_input.h"
#include "ledger/ledger.h"

namespace idemlab {

namespace {

// One line on standard error per fault that fires, with the request's key.
void log_fault(uint64_t number, const TransferRequest& request, const FaultSpec& fault) {
  std::fprintf(stderr, "fault %s on request %llu (%s %s)\n", fault.text.c_str(),
               static_cast<unsigned long long>(number), request.key_missing ? "id" : "key",
               request.biz_seq.c_str());
}

bool lost_on_the_wire(const AttemptReport& report) {
  return report.answer.outcome == Outcome::kTimeout &&
         (report.answer.reason == reason::kRequestLost ||
          report.answer.reason == reason::kResponseLost);
}

std::string lease_owner() {
  static std::atomic<uint64_t> made{0};
  return fmt::format("serve-{}-{}", ::getpid(), made++);
}

}  // namespace

// No request may stop the server: whatever escapes is answered 500, and said on stderr.
HttpReply TransferServer::handle(const HttpMessage& message) {
  try {
    return route(message);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "internal error on %s %s: %s\n", message.method.c_str(),
                 message.path.c_str(), error.what());
    return problem_reply(Problem::kInternal, "the server failed on this request; it said why");
  }
}

HttpReply TransferServer::route(const HttpMessage& message) {
  const std::string& path = message.path;
  if (path == "/transfers") {
    if (message.method != "POST")
      return problem_reply(Problem::kMethodNotAllowed, "/transfers takes POST",
                           {{"Allow", "POST"}});
    return post_transfer(message);
  }
  if (path == "/tokens") {
    if (message.method != "POST")
      return problem_reply(Problem::kMethodNotAllowed, "/tokens takes POST", {{"Allow", "POST"}});
    return post_token(message);
  }
  if (path == "/pay") return pay_page(*this, message);
  if (path == "/problems" || path.starts_with("/problems/"))
    return problem_page(path.size() > 10 ? std::string_view(path).substr(10) : "");
  return other_resource(message);
}

std::optional<HttpReply> TransferServer::run_attempt(const Strategy& strategy,
                                                     TransferRequest request,
                                                     AttemptReport* report) {
  const uint64_t number = ++requests_;
  AttemptSetup setup;
  setup.strategy = &strategy;
  setup.options.pitfall = &strategy == settings_.strategy ? settings_.pitfall : Pitfall::kNone;
  setup.options.token = request.token;
  setup.options.unique_index = settings_.unique_index && strategy.info().offers_unique_index;
  setup.options.lock_ttl_ms = settings_.lock_ttl_ms;
  setup.options.owner = lease_owner();
  setup.request = std::move(request);
  setup.faults = settings_.faults.draw(number);
  for (const FaultSpec& fault : setup.faults) log_fault(number, setup.request, fault);
  Result<LedgerPool::Lease> lease = pool_.acquire();
  if (!lease.is_ok()) return status_reply(lease.status());
  setup.guard_store = (*lease)->guards.get();
  WallClock clock;
  if (Status status = run_direct_attempt((*lease)->ledger, clock, setup, report); !status.is_ok())
    return status_reply(status);
  if (report->answer.reason == reason::kConnectionLost) lease->discard();
  if (lost_on_the_wire(*report)) return HttpReply::dropped();
  return std::nullopt;
}

HttpReply TransferServer::post_transfer(const HttpMessage& message) {
  TransferInput input;
  HttpReply problem;
  if (!read_transfer_input(message, &input, &problem)) return problem;
  if (!input.key && settings_.require_key)
    return problem_reply(Problem::kMissingIdempotencyKey,
                         "POST /transfers needs an Idempotency-Key header on this server");
  if (settings_.strategy->info().needs_token && input.token.empty())
    return problem_reply(Problem::kTokenRequired, "POST /tokens issues one");
  TransferRequest request;
  request.source = "http";
  request.biz_seq = input.key ? *input.key : new_transfer_id();
  request.from = input.from;
  request.to = input.to;
  request.amount_minor = input.amount_minor;
  request.token = input.token;
  AttemptReport report;
  if (std::optional<HttpReply> instead = run_attempt(*settings_.strategy, request, &report))
    return *instead;
  return answer_reply(request, report);
}

// POST /tokens: one token, or with ?count=N (at most 10000) N at once, for a load tool that
// sends each request with its own token.
HttpReply TransferServer::post_token(const HttpMessage& message) {
  int64_t count = 1;
  const std::string* asked = message.query_value("count");
  if (asked && !parse_whole(*asked, 1, 10000, &count))
    return problem_reply(Problem::kInvalidField, "count= takes a whole number from 1 to 10000");
  Result<LedgerPool::Lease> lease = pool_.acquire();
  if (!lease.is_ok()) return status_reply(lease.status());
  StatementRunner& store = (*lease)->token_store();
  nlohmann::ordered_json tokens = nlohmann::ordered_json::array();
  WallClock clock;
  for (int64_t i = 0; i < count; ++i) {
    IssuedToken token;
    if (Status status =
            issue_token(store, clock, secret_word(), secret_word(), settings_.token_ttl_ms, &token);
        !status.is_ok())
      return status_reply(status);
    tokens.push_back({{"token", token.token}, {"expires_at_ms", token.expires_at_ms}});
  }
  HttpReply reply;
  reply.status = 201;
  reply.headers = {{"Content-Type", "application/json"}};
  reply.body = json_body(asked ? nlohmann::ordered_json{{"tokens", tokens}} : tokens[0]);
  return reply;
}

// The resources `idemlab http` serves: accounts, limits, a transfer's state.
HttpReply TransferServer::other_resource(const HttpMessage& message) {
  HttpRequest request;
  request.method = message.method;
  request.path = message.path;
  std::vector<std::pair<std::string, std::string>> form;
  if (!message.body.empty() && !parse_form(message.body, &form))
    return problem_reply(Problem::kMalformedBody, "the body is not a form of key=value pairs");
  for (auto& [name, value] : form) request.form[name] = std::move(value);
  if (Status status = check_http_request(request); !status.is_ok()) return status_reply(status);
  Result<LedgerPool::Lease> lease = pool_.acquire();
  if (!lease.is_ok()) return status_reply(lease.status());
  WallClock clock;
  HttpResponse response;
  if (Status status = serve_http((*lease)->ledger, clock, request, &response); !status.is_ok())
    return status_reply(status);
  if (response.status == 404)
    return problem_reply(Problem::kNotFound, response.body.value("error", ""));
  if (response.status == 405)
    return problem_reply(Problem::kMethodNotAllowed, response.body.value("error", ""),
                         {{"Allow", response.allow}});
  HttpReply reply;
  reply.status = response.status;
  if (response.status != 204) {
    reply.headers = {{"Content-Type", "application/json"}};
    reply.body = json_body(response.body);
  }
  return reply;
}

}  // namespace idemlab
