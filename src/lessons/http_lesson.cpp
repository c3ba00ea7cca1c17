// The lesson "the client retries over HTTP": idemlab serve loses two answers on purpose, and
// curl, told to retry every error, resends the POST each time. Without an Idempotency-Key the
// retry is a second payment; with one it is a replay. The balances come from the ledger.
#include "lessons/steps.h"

namespace idemlab {

namespace {

// curl as a script runs it: retry every error (an empty reply too) a second later, print the
// status.
constexpr std::string_view kCurl =
    "--no-progress-meter -o /dev/null -w %{http_code}\\n --retry 3 --retry-all-errors "
    "--retry-delay 1 -d from=alice&to=bob&amount=10.00";

std::string curl(std::string_view extra) {
  std::string out(kCurl);
  if (!extra.empty()) out += " " + std::string(extra);
  return out + " $BASE/transfers";
}

}  // namespace

Lesson client_retries_over_http() {
  return {0,
          "client-retries-over-http",
          "The client retries over HTTP",
          "000 §1; 002 §2-3; 004 §2",
          "An HTTP client that hears nothing back cannot tell a lost request from a lost "
          "answer. curl, a client library or a load balancer then sends the POST again. Here a "
          "real server loses the answers to requests 1 and 3 after committing them.",
          {step("", "init --db l.db"),
           in_background("The transfer endpoint, with dedup-table behind it.",
                         "serve --db l.db --strategy dedup-table --listen 127.0.0.1:0 --fault "
                         "response-lost:nth=1 --fault response-lost:nth=3"),
           run_program("A payment of 10.00 with no key. Its answer is lost; curl retries, and "
                       "the server sees a new payment.",
                       "curl", curl("")),
           step("alice paid 20.00 for one payment.", "accounts --db l.db"),
           run_program("The same payment with an Idempotency-Key. Its answer is lost too; the "
                       "retry carries the same key, and the server answers it as a replay.",
                       "curl", curl("-H Idempotency-Key:pay-1")),
           step("alice paid 10.00 more: once.", "accounts --db l.db"),
           step("What the server saw of pay-1: the lost answer, then the replay.",
                "history --db l.db --source http --biz-seq pay-1")},
          "a client that retries must send the same key each time, and the server must "
          "answer a key it has seen with its first answer: then a retry is safe."};
}

}  // namespace idemlab
