// TransferServer: what `idemlab serve` answers. POST /transfers runs one attempt of the server's
// strategy through the same code as a strategy subcommand, with the Idempotency-Key as the
// transfer's id, and answers from what the ledger says afterwards; POST /tokens issues a token
// for the token strategy; GET /pay is the classroom's payment page; GET /problems/NAME says
// what each error means; the account, limit and transfer resources are `idemlab http`'s. Each
// request may meet the faults the server was started with (request_faults.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "attempt/direct.h"
#include "attempt/request_faults.h"
#include "http/ledger_pool.h"
#include "http/listener.h"

namespace idemlab {

struct ServeSettings {
  const Strategy* strategy = nullptr;
  Pitfall pitfall = Pitfall::kNone;
  bool require_key = false;       // POST /transfers without an Idempotency-Key: 400
  bool unique_index = false;      // select-for-update: the flow row under the unique index too
  int64_t lock_ttl_ms = 30000;    // lock-table
  int64_t token_ttl_ms = 600000;  // POST /tokens, and the payment page's tokens
  RequestFaults faults;
};

class TransferServer {
 public:
  TransferServer(ServeSettings settings, LedgerPoolOptions pool)
      : settings_(std::move(settings)), pool_(std::move(pool)) {}

  HttpReply handle(const HttpMessage& message);
  const ServeSettings& settings() const { return settings_; }
  LedgerPool& pool() { return pool_; }

  // One attempt of `strategy` for `request`, with the faults drawn for it, on a pooled ledger
  // connection; `report` gets its answer. Returns a reply to send instead when there is none
  // to build from an answer: the connection to drop (a lost request or answer), or the error
  // that stopped it. (The payment page's POST runs through here too.)
  std::optional<HttpReply> run_attempt(const Strategy& strategy, TransferRequest request,
                                       AttemptReport* report);

 private:
  HttpReply route(const HttpMessage& message);
  HttpReply post_transfer(const HttpMessage& message);
  HttpReply post_token(const HttpMessage& message);
  HttpReply other_resource(const HttpMessage& message);

  ServeSettings settings_;
  LedgerPool pool_;
  std::atomic<uint64_t> requests_{0};
};

// A fresh id for a transfer sent without a key: every POST without one is a new transfer.
std::string new_transfer_id();
// The reply to an attempt's answer: 201 and the transfer, a replay of the first answer
// (Idempotent-Replayed: true), or the problem the answer names.
HttpReply answer_reply(const TransferRequest& request, const AttemptReport& report);
// The reply to an error that stopped a request before it had an answer.
HttpReply status_reply(const Status& status);

}  // namespace idemlab
