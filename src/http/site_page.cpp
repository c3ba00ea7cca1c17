// The front page: links, and what this server runs.
#include "http/site_page.h"

#include <fmt/format.h>

#include "http/page_style.h"
#include "http/problem.h"
#include "http/transfer_server.h"
#include "ledger/ledger.h"
#include "term/markup.h"

namespace idemlab {

namespace {

std::string account_links(TransferServer& server) {
  Result<LinkPool::Lease> lease = server.pool().acquire();
  if (!lease.is_ok()) return "";
  std::vector<AccountBalance> accounts;
  if (!list_accounts((*lease)->ledger, &accounts).is_ok()) return "";
  std::string links;
  for (const AccountBalance& account : accounts)
    links += fmt::format(" <a href=\"/accounts/{0}\">{0}</a>", markup_text(account.name));
  return links;
}

}  // namespace

HttpReply site_page(TransferServer& server, const HttpMessage& message) {
  if (message.method != "GET")
    return problem_reply(Problem::kMethodNotAllowed, "/ takes GET", {{"Allow", "GET, HEAD"}});
  const ServeSettings& settings = server.settings();
  const std::string* host = message.header("host");
  const std::string strategy =
      fmt::format("{}{}", settings.strategy->info().name, pitfall_argument(settings.pitfall));
  std::string body = fmt::format(
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>idemlab serve"
      "</title><style>{}</style></head><body>\n<h1>idemlab serve</h1>\n<p>POST /transfers "
      "runs <b>{}</b> on this ledger; the Idempotency-Key header names a transfer, so that a "
      "retry is a repeat.</p>\n<ul>\n"
      "<li><a href=\"/pay\">/pay</a>: a payment form without a key (a double click pays "
      "twice)</li>\n"
      "<li><a href=\"/pay?guard=token\">/pay?guard=token</a>: the same form with a one-time "
      "token (a double click pays once)</li>\n"
      "<li><a href=\"/accounts\">/accounts</a>: the balances;{}</li>\n"
      "<li><a href=\"/problems\">/problems</a>: every error this server answers, and what a "
      "client does about it</li>\n</ul>\n<p class=\"small\">From a shell: <code>curl -i -H "
      "'Idempotency-Key: pay-1' -d from=alice -d to=bob -d amount=10.00 "
      "http://{}/transfers</code></p>\n</body></html>\n",
      kPageStyle, markup_text(strategy), account_links(server),
      host ? markup_text(*host) : "HOST:PORT");
  HttpReply reply;
  reply.headers = {{"Content-Type", "text/html; charset=utf-8"}, {"Cache-Control", "no-store"}};
  reply.body = std::move(body);
  return reply;
}

}  // namespace idemlab
