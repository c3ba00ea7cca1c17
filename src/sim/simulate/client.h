// Retrying clients: each worker sends one request at a time, waits for its answer or a timeout,
// backs off and retries by its policy, asks first (query=yes), gives up; a token-strategy client
// fetches a token for each key it uses. The clients own every request's record (requests.h).
// Internal to src/sim/simulate/.
#pragma once

#include <vector>

#include "sim/simulate/network.h"
#include "sim/simulate/requests.h"
#include "sim/simulate/run_ledger.h"
#include "sim/simulate/run_stats.h"

namespace idemlab::sim {

class Clients {
 public:
  Clients(const RunSettings& settings, EventQueue& events, RunTrace& trace, RunStats& stats,
          RunLedger& ledger, Network& network)
      : settings_(settings),
        events_(events),
        trace_(trace),
        stats_(stats),
        ledger_(ledger),
        network_(network),
        requests_(static_cast<size_t>(settings.config.requests)) {}

  // The workers start, one event each.
  void start(uint32_t workers);
  void start_request(uint32_t worker);
  void send_attempt(uint32_t request);
  void answer(uint32_t delivery);
  void timeout(uint32_t request, uint32_t attempt);
  void retry(uint32_t request);
  // What request `request` carries under its key number `key`: its payload drawn from the
  // seed, with the faults that shape a request (overdraw, no-key) and its token.
  TransferRequest make_request(uint32_t request, uint8_t key) const;
  // The server gave a definitive answer to `request`: kept, to tell whether answers agree.
  void record_answer(uint32_t request, const Answer& answer);
  // A statement ran for `request` (on the server, or the client's own query).
  void count_statement(uint32_t request) { ++requests_[request].statements; }

  const std::vector<RequestRecord>& requests() const { return requests_; }

 private:
  void back_off(uint32_t request);
  void finish(uint32_t request, ClientPhase phase);
  uint16_t reason_id(const std::string& reason);
  std::string token_for(uint32_t request, uint8_t key) const;
  enum class TokenIssue { kIssued, kLockTaken, kLinkLost };
  TokenIssue issue_token_for(uint32_t request, uint8_t key);

  const RunSettings& settings_;
  EventQueue& events_;
  RunTrace& trace_;
  RunStats& stats_;
  RunLedger& ledger_;
  Network& network_;
  std::vector<RequestRecord> requests_;
  std::vector<uint32_t> worker_request_;
  uint32_t next_request_ = 0;
  int64_t finished_ = 0;
  std::vector<std::string> reasons_{""};
};

}  // namespace idemlab::sim
