// Reading a ledger for people and scripts: balances, the attempts log, and issuing tokens.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "db/connection.h"

namespace idemlab {

struct AccountBalance {
  std::string name;
  int64_t balance_minor = 0;
  int64_t opening_balance_minor = 0;
};
Status list_accounts(Connection& connection, std::vector<AccountBalance>* out);

struct AttemptRecord {
  int64_t id = 0;
  std::string biz_seq;
  std::string strategy;
  bool pitfall = false;
  std::string outcome;
  std::string reason;
  bool replayed = false;
  std::string fault;
  int64_t at_ms = 0;
};
// The most recent `limit` attempts (all of one biz_seq if given), oldest first.
Status list_attempts(Connection& connection, const std::optional<std::string>& biz_seq,
                     int64_t limit, std::vector<AttemptRecord>* out);

// What a server can tell a client that asks before retrying (query-before-retry): the state of
// its request, read from the flow rows and the guards, never from the journal.
enum class RequestState { kNotFound, kProcessing, kSucceeded, kFailed };
std::string_view request_state_name(RequestState state);  // not_found, processing, ...
struct RequestStatus {
  RequestState state = RequestState::kNotFound;
  std::string strategy;  // the strategy that wrote the first flow row
  std::string reason;    // why it failed
  int64_t flow_rows = 0;
};
// Succeeded if any flow row says so; failed if one says failed; processing if a flow row, a
// dedup record or a lock says the request is under way; otherwise not found.
Status query_request(Connection& connection, const std::string& biz_seq, RequestStatus* out);

struct IssuedToken {
  std::string token;
  int64_t expires_at_ms = 0;
};
// Stores a fresh token valid for `ttl_ms`; `entropy` supplies its 128 random bits.
Status issue_token(Connection& connection, const Clock& clock, uint64_t entropy_high,
                   uint64_t entropy_low, int64_t ttl_ms, IssuedToken* out);

}  // namespace idemlab
