// Routing a request to what answers it, and one attempt per POST /transfers.
#include "http/transfer_server.h"

#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "attempt/wire_faults.h"
#include "core/clock.h"
#include "core/parse.h"
#include "core/quote.h"
#include "http/pay_page.h"
#include "http/problem.h"
#include "http/resources.h"
#include "http/secret.h"
#include "http/site_page.h"
#include "http/transfer_input.h"
#include "ledger/ledger.h"

namespace idemlab {

namespace {

// How long the slow faults an attempt was dealt hold it up.
int64_t slowed_ms(const std::vector<FaultSpec>& faults) {
  int64_t total = 0;
  for (const FaultSpec& fault : faults)
    if (fault.kind == FaultKind::kSlow) total += fault.ms;
  return total;
}

// One line on standard error per fault as it acts on a request (a slow fault that a twin's
// answer beat is never logged), with the request's key and where it acted.
void log_fault(FaultLog log, uint64_t number, const TransferRequest& request,
               const FaultSpec& fault, std::string_view where) {
  if (log == FaultLog::kJson) {
    const std::string line =
        nlohmann::ordered_json{{"event", "fault"},
                               {"request", number},
                               {"fault", fault.text},
                               {request.key_missing ? "id" : "key", request.biz_seq},
                               {"where", where}}
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
        "\n";
    std::fputs(line.c_str(), stdout);  // one call a line: lines of two threads never mix
    std::fflush(stdout);
    return;
  }
  std::fprintf(stderr, "fault %s on request %llu (%s %s) %.*s\n", fault.text.c_str(),
               static_cast<unsigned long long>(number), request.key_missing ? "id" : "key",
               printable(request.biz_seq).c_str(), static_cast<int>(where.size()), where.data());
}

bool lost_on_the_wire(const AttemptReport& report) {
  return report.answer.outcome == Outcome::kTimeout &&
         (report.answer.reason == reason::kRequestLost ||
          report.answer.reason == reason::kResponseLost);
}

HttpReply method_not_allowed(const std::string& path, std::string_view allow) {
  return problem_reply(Problem::kMethodNotAllowed, fmt::format("{} takes {}", path, allow),
                       {{"Allow", std::string(allow)}});
}

}  // namespace

// No request may stop the server: whatever escapes is answered 500, and said on stderr.
HttpReply TransferServer::handle(const HttpMessage& message, Faults faults) {
  try {
    return route(message, faults);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "internal error on %s %s: %s\n", message.method.c_str(),
                 printable(message.path).c_str(), error.what());
    return problem_reply(Problem::kInternal, "the server failed on this request; it said why");
  }
}

HttpReply TransferServer::route(const HttpMessage& message, Faults faults) {
  // HEAD is answered as GET is (RFC 9110): the listener sends the headers and no body.
  if (message.method == "HEAD") {
    HttpMessage get = message;
    get.method = "GET";
    return route(get, faults);
  }
  const std::string& path = message.path;
  if (path == "/transfers") {
    if (message.method != "POST") return method_not_allowed(path, "POST");
    return post_transfer(message, faults);
  }
  if (path == "/tokens") {
    if (message.method != "POST") return method_not_allowed(path, "POST");
    return post_token(message);
  }
  if (path == "/") return site_page(*this, message);
  if (path == "/pay") return pay_page(*this, message);
  if (path == "/problems" || path.starts_with("/problems/"))
    return problem_page(path.size() > 10 ? std::string_view(path).substr(10) : "");
  return ledger_resource(message, faults);
}

// How long a twin refused while `holder` has its key should wait: until this server expects
// the holder to finish, never past its lease; a holder this server does not run (another
// process's, or one that crashed) is waited for until its lease ends, or a second.
int64_t TransferServer::expected_wait_ms(const std::string& key, const KeyHolder& holder,
                                         int64_t now_ms) const {
  const std::optional<int64_t> finish = in_flight_.expected_finish(key);
  if (!finish) return holder.retry_after_ms;
  const int64_t wait = std::max<int64_t>(0, *finish - now_ms);
  return holder.until_ms < 0 ? wait : std::min(wait, holder.retry_after_ms);
}

std::optional<HttpReply> TransferServer::run_attempt(const Strategy& strategy,
                                                     const RequestText& text, Faults faults,
                                                     AttemptRun* run) {
  const uint64_t number = ++requests_;
  AttemptPolicy policy;
  policy.transport = Transport::kHttp;
  policy.strategy = &strategy;
  policy.pitfall = &strategy == settings_.strategy ? settings_.pitfall : Pitfall::kNone;
  policy.unique_index = settings_.unique_index;
  policy.lock_ttl_ms = settings_.lock_ttl_ms;
  policy.fence = settings_.fence;
  policy.faults = faults ? *faults : settings_.faults.draw(number);
  Result<AttemptSetup> admitted = admit(text, policy);
  if (!admitted.is_ok()) return status_reply(admitted.status());
  AttemptSetup& setup = *admitted;
  if (settings_.fault_log != FaultLog::kNone)
    setup.fault_acts = [log = settings_.fault_log, number, &request = setup.request](
                           const FaultSpec& fault, std::string_view where) {
      log_fault(log, number, request, fault, where);
    };
  Result<LinkPool::Lease> lease = pool_.acquire();
  if (!lease.is_ok()) return status_reply(lease.status());
  setup.guard_store = (*lease)->guards.get();
  std::optional<ReadSplit> reads;
  if ((*lease)->standby.is_open())
    setup.reads = &reads.emplace((*lease)->standby, (*lease)->ledger, settings_.read_your_writes);
  WallClock clock;
  run->request = setup.request;
  const std::string key = setup.request.source + ":" + setup.request.biz_seq;
  InFlight::Entry under_way = in_flight_.enter(key, clock.now_ms(), slowed_ms(setup.faults));
  if (Status status = run_direct_attempt((*lease)->ledger, clock, setup, &run->report);
      !status.is_ok())
    return status_reply(status);
  under_way.finished(clock.now_ms());
  if (!run->report.holder.by.empty())
    run->report.holder.retry_after_ms = expected_wait_ms(key, run->report.holder, clock.now_ms());
  if (lost_on_the_wire(run->report)) return HttpReply::dropped();
  return std::nullopt;
}

HttpReply TransferServer::post_transfer(const HttpMessage& message, Faults faults) {
  RequestText text;
  HttpReply problem;
  if (!read_transfer_input(message, &text, &problem)) return problem;
  if (!text.key && settings_.require_key)
    return problem_reply(Problem::kMissingIdempotencyKey,
                         "POST /transfers needs an Idempotency-Key header on this server");
  if (!text.key) text.key = new_transfer_id();
  text.source = kHttpSource;
  AttemptRun run;
  if (std::optional<HttpReply> instead = run_attempt(*settings_.strategy, text, faults, &run))
    return *instead;
  return answer_reply(run.request, run.report);
}

// POST /tokens: one token, or with ?count=N (at most limits::kMaxTokensAtOnce) N at once, for
// a load tool that sends each request with its own token.
HttpReply TransferServer::post_token(const HttpMessage& message) {
  int64_t count = 1;
  const std::string* asked = message.query_value("count");
  if (asked && !parse_whole(*asked, 1, limits::kMaxTokensAtOnce, &count))
    return problem_reply(
        Problem::kInvalidField,
        fmt::format("count= takes a whole number from 1 to {}", limits::kMaxTokensAtOnce));
  Result<LinkPool::Lease> lease = pool_.acquire();
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

// The ledger's other resources (resources.h): accounts, limits, a transfer's state. The
// faults `idemlab http` gives act on them as on a transfer: lost before the work, or after.
// A path or method no resource takes is refused before a ledger connection is taken: its 404
// or 405 needs no ledger, and stays true while the ledger is out of reach.
HttpReply TransferServer::ledger_resource(const HttpMessage& message, Faults faults) {
  if (std::optional<HttpReply> refused = resource_refusal(message)) return std::move(*refused);
  const WireFaults wire = faults ? wire_faults(*faults) : WireFaults{};
  if (wire.request_lost) return HttpReply::dropped();
  Result<LinkPool::Lease> lease = pool_.acquire();
  if (!lease.is_ok()) return status_reply(lease.status());
  WallClock clock;
  HttpReply reply = answer_resource((*lease)->ledger, clock, message);
  if (wire.response_lost && reply.status / 100 == 2) return HttpReply::dropped();
  return reply;
}

}  // namespace idemlab
