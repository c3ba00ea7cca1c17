// TransferServer: the transfer endpoint, one model for both HTTP commands: `idemlab serve`
// answers each request its listener reads with handle(); `idemlab http` builds the same
// message and calls the same handle() in its own process. POST /transfers runs one attempt of
// the server's strategy through the front door (attempt/front_door.h), with the
// Idempotency-Key as the transfer's id, and answers from what the ledger says afterwards;
// POST /tokens issues a token for the token strategy; GET /pay is the classroom's payment
// page; GET /problems/NAME says what each error means; the account, limit and transfer
// resources are in resources.h. Faults: serve draws its own for each transfer
// (request_faults.h); `idemlab http` gives the ones its one request meets.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attempt/front_door.h"
#include "attempt/request_faults.h"
#include "db/link_pool.h"
#include "http/in_flight.h"
#include "http/listener.h"

namespace idemlab {

// Where serve tells of a fault when it acts: nowhere (idemlab http's answer says it), a line
// on standard error, or under serve --json a JSON line on standard output, as its other events.
enum class FaultLog : uint8_t { kNone, kText, kJson };

struct ServeSettings {
  const Strategy* strategy = nullptr;
  Pitfall pitfall = Pitfall::kNone;
  bool require_key = false;   // POST /transfers without an Idempotency-Key: 400
  bool unique_index = false;  // select-for-update: the flow row under the unique index too
  FaultLog fault_log = FaultLog::kText;  // where a fault that acts is told
  int64_t lock_ttl_ms = defaults::kLockTtlMs;
  bool fence = false;  // lock-table: carry the lock grant's fence into the ledger (--fence)
  bool read_your_writes = false;  // with a standby: its "not found" trusted once caught up
  int64_t token_ttl_ms = defaults::kTokenTtlMs;  // POST /tokens, and the payment page's tokens
  RequestFaults faults;
};

// An attempt the endpoint ran: the request as the front door read it, and its answer.
struct AttemptRun {
  TransferRequest request;
  AttemptReport report;
};

class TransferServer {
 public:
  // `pool_size`: the sets of links (db/link_pool.h) requests borrow at once.
  TransferServer(ServeSettings settings, Deployment deployment, int pool_size)
      : settings_(std::move(settings)), pool_(std::move(deployment), pool_size) {}

  // Answers one request. `faults`: those this request meets, whatever its resource (idemlab
  // http); null: the server's drawn faults, which meet transfers (serve).
  HttpReply handle(const HttpMessage& message, const std::vector<FaultSpec>* faults = nullptr);
  const ServeSettings& settings() const { return settings_; }
  LinkPool& pool() { return pool_; }

  // One attempt of `strategy` for the request `text`, on a pooled ledger connection, with the
  // faults it meets; `run` gets its answer. Returns a reply to send instead when there is none
  // to build from an answer: the front door's refusal, the connection to drop (a lost request
  // or answer), or the error that stopped it. (The payment page's POST runs through here too.)
  std::optional<HttpReply> run_attempt(const Strategy& strategy, const RequestText& text,
                                       const std::vector<FaultSpec>* faults, AttemptRun* run);

 private:
  using Faults = const std::vector<FaultSpec>*;
  HttpReply route(const HttpMessage& message, Faults faults);
  HttpReply post_transfer(const HttpMessage& message, Faults faults);
  HttpReply post_token(const HttpMessage& message);
  HttpReply ledger_resource(const HttpMessage& message, Faults faults);
  int64_t expected_wait_ms(const std::string& key, const KeyHolder& holder, int64_t now_ms) const;

  ServeSettings settings_;
  LinkPool pool_;
  std::atomic<uint64_t> requests_{0};
  InFlight in_flight_;  // the attempts under way, for a refused twin's Retry-After
};

// A fresh id for a transfer sent without a key: every POST without one is a new transfer.
std::string new_transfer_id();
// The reply to an attempt's answer: 201 and the transfer, a replay of the first answer
// (Idempotent-Replayed: true), or the problem the answer names.
HttpReply answer_reply(const TransferRequest& request, const AttemptReport& report);

}  // namespace idemlab
