// The payment page: a form, the balances, the last transfers, and what the last submission did.
#include "http/pay_page.h"

#include <fmt/format.h>

#include <algorithm>

#include "http/page_style.h"
#include "http/problem.h"
#include "http/secret.h"
#include "http/transfer_input.h"
#include "http/transfer_server.h"
#include "ledger/ledger.h"
#include "ledger/money.h"
#include "term/markup.h"

namespace idemlab {

namespace {

constexpr const char* kSource = "pay";  // the page's transfers, apart from the API's

// How often the form was sent, and how often money moved for it, from the attempts log and
// the journal: the page's word is the ledger's.
std::string result_text(Connection& ledger, const std::string& form) {
  int64_t sent = 0, moved = 0;
  const StepResult counted = ledger.query(
      "SELECT (SELECT count(*) FROM attempt WHERE source = :source AND biz_seq LIKE :form), "
      "(SELECT count(*) FROM journal WHERE source = :source AND side = 'debit' AND "
      "biz_seq LIKE :form)",
      {{":source", std::string(kSource)}, {":form", form + "%"}}, [&](const Row& row) {
        sent = as_int(row[0]);
        moved = as_int(row[1]);
      });
  if (!counted.ok()) return "";
  // A payment writes its attempt row just after its commit: one that moved money is a send,
  // even while its row is still on its way.
  sent = std::max(sent, moved);
  const char* times[] = {"never", "once", "twice"};
  return fmt::format(
      "<p class=\"result {}\">This form was sent {} time{}: money moved {}{} (the journal "
      "says so).</p>\n",
      moved == 1 ? "good" : "bad", sent, sent == 1 ? "" : "s",
      moved < 3 ? times[moved] : fmt::format("{} times", moved), moved > 1 ? "!" : "");
}

// The balances table, and the accounts as <option>s for the form's payer and payee (the payee
// a different account than the payer, so the form as loaded is a valid payment).
std::string balances_html(Connection& ledger, std::string* from_options, std::string* to_options) {
  std::vector<AccountBalance> accounts;
  if (!list_accounts(ledger, &accounts).is_ok()) return "";
  std::string rows;
  for (const AccountBalance& account : accounts) {
    rows += fmt::format("<tr><td>{}</td><td>{}</td></tr>", markup_text(account.name),
                        format_amount(account.balance_minor));
    const std::string name = markup_text(account.name);
    *from_options += fmt::format("<option>{}</option>", name);
    *to_options += fmt::format("<option{}>{}</option>",
                               &account - accounts.data() == 1 ? " selected" : "", name);
  }
  return "<h2>Balances</h2><table><tr><th>account</th><th>balance</th></tr>" + rows + "</table>\n";
}

std::string last_transfers_html(Connection& ledger) {
  std::string rows;
  const StepResult listed = ledger.query(
      "SELECT d.biz_seq, d.account, (SELECT c.account FROM journal c WHERE c.source = d.source "
      "AND c.biz_seq = d.biz_seq AND c.side = 'credit' AND c.id > d.id ORDER BY c.id LIMIT 1), "
      "d.amount_minor FROM journal d WHERE d.side = 'debit' ORDER BY d.id DESC LIMIT 8",
      {}, [&](const Row& row) {
        rows += fmt::format("<tr><td>{}</td><td>{} → {}</td><td>{}</td></tr>",
                            markup_text(as_text(row[0])), markup_text(as_text(row[1])),
                            markup_text(as_text(row[2])), format_amount(as_int(row[3])));
      });
  if (!listed.ok() || rows.empty()) return "";
  return "<h2>Last transfers</h2><table><tr><th>id</th><th>from → to</th><th>amount</th></tr>" +
         rows + "</table>\n";
}

// Whether the server pauses in every payment long enough for a double click to send two.
std::string pace_text(const TransferServer& server) {
  const bool slow = server.settings().faults.draws_slow();
  return std::string(
             "<p class=\"small\">A person's double click sends two payments only when the "
             "server answers more slowly than the gap between the clicks (100 to 250 ms). ") +
         (slow ? "This server pauses in every payment (--fault slow), so it does.</p>\n"
               : "This server answers in a few milliseconds: start it with --fault "
                 "slow:ms=1000 to let a double click send two.</p>\n");
}

HttpReply show(TransferServer& server, const HttpMessage& message, bool guarded) {
  Result<LinkPool::Lease> lease = server.pool().acquire();
  if (!lease.is_ok()) return status_reply(lease.status());
  Connection& ledger = (*lease)->ledger;
  const std::string form = "f" + secret_hex(12);
  std::string hidden = fmt::format("<input type=\"hidden\" name=\"form\" value=\"{}\">", form);
  if (guarded) {
    StatementRunner& store = (*lease)->token_store();
    WallClock clock;
    IssuedToken token;
    if (Status status = issue_token(store, clock, secret_word(), secret_word(),
                                    server.settings().token_ttl_ms, &token);
        !status.is_ok())
      return status_reply(status);
    hidden += fmt::format("<input type=\"hidden\" name=\"token\" value=\"{}\">", token.token);
  }
  std::string from_options, to_options;
  const std::string balances = balances_html(ledger, &from_options, &to_options);
  std::string body = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>idemlab: pay"
      "</title><style>{}</style></head><body>\n<h1>Pay{}</h1>\n<p>{}</p>\n",
      kPageStyle, guarded ? " (with a one-time token)" : "",
      guarded ? "This form carries a one-time token the server issued for this page: the token "
                "strategy takes it once, whatever number of times the form is sent."
              : "This form carries no key: every time it is sent is a new payment.");
  if (const std::string* paid = message.query_value("paid")) body += result_text(ledger, *paid);
  body += fmt::format(
      "<form method=\"post\" action=\"/pay{}\">{}<label>From<select name=\"from\">{}</select>"
      "</label><label>To<select name=\"to\">{}</select></label><label>Amount<input "
      "name=\"amount\" value=\"10.00\" size=\"8\"></label><button id=\"pay\" type=\"submit\">"
      "Pay</button></form>\n",
      guarded ? "?guard=token" : "", hidden, from_options, to_options);
  body += balances + last_transfers_html(ledger) + pace_text(server) + "</body></html>\n";
  HttpReply reply;
  reply.headers = {{"Content-Type", "text/html; charset=utf-8"}, {"Cache-Control", "no-store"}};
  reply.body = std::move(body);
  return reply;
}

HttpReply pay(TransferServer& server, const HttpMessage& message, bool guarded) {
  RequestFields fields;
  std::string why;
  if (!read_form_fields(message.body, &fields, &why))
    return problem_reply(Problem::kMalformedBody, why);
  std::string form;
  std::erase_if(fields, [&](const auto& field) {
    if (field.first != "form") return false;
    form = field.second;
    return true;
  });
  if (form.size() != 13 || form[0] != 'f')
    return problem_reply(Problem::kInvalidField, "form= is the page's own id: reload the page");
  RequestText text;
  HttpReply problem;
  if (!transfer_from_fields(fields, &text, &problem)) return problem;
  text.source = kSource;
  text.key = guarded ? form : form + "-" + secret_hex(6);
  const Strategy& strategy = guarded ? *find_strategy("token") : *server.settings().strategy;
  if (strategy.info().needs_token && text.token.empty())
    return problem_reply(Problem::kTokenRequired,
                         "this form carries no token: open /pay?guard=token");
  AttemptRun run;
  if (std::optional<HttpReply> instead = server.run_attempt(strategy, text, nullptr, &run))
    return *instead;
  // A payment the ledger refuses (funds, accounts) is said as such; a repeat the guard stopped
  // goes to the page, which counts what the form did.
  if (run.report.answer.outcome == Outcome::kRejected) return answer_reply(run.request, run.report);
  HttpReply reply;
  reply.status = 303;  // Post/Redirect/Get: a reload shows the page, and pays nothing
  reply.headers = {
      {"Location", fmt::format("/pay?{}paid={}", guarded ? "guard=token&" : "", form)}};
  return reply;
}

}  // namespace

HttpReply pay_page(TransferServer& server, const HttpMessage& message) {
  const std::string* guard = message.query_value("guard");
  const bool guarded = guard && *guard == "token";
  if (guard && !guarded)
    return problem_reply(Problem::kInvalidField, "guard= takes token, or nothing");
  if (message.method == "GET") return show(server, message, guarded);
  if (message.method == "POST") return pay(server, message, guarded);
  return problem_reply(Problem::kMethodNotAllowed, "/pay takes GET and POST",
                       {{"Allow", "GET, HEAD, POST"}});
}

}  // namespace idemlab
