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

// One account's balance and limit, read in one statement (one snapshot); `found` false when
// there is no such account.
struct AccountView {
  bool found = false;
  int64_t balance_minor = 0;
  std::optional<int64_t> limit_minor;
};
Status read_account(Connection& connection, const std::string& name, AccountView* out);

struct AttemptRecord {
  int64_t id = 0;
  std::string source;
  std::string biz_seq;
  std::string strategy;
  std::string pitfall;  // the pitfall's name, or empty
  std::string outcome;
  std::string reason;
  bool replayed = false;
  std::string fault;
  int64_t at_ms = 0;
  std::string isolation;  // on a server, the level it ran at; empty on SQLite
  std::string node;       // on a Galera cluster, the node that served it; else empty
};
// The most recent `limit` attempts (only one source's, one biz_seq's, if given), oldest first.
struct AttemptFilter {
  std::optional<std::string> source;
  std::optional<std::string> biz_seq;
  int64_t limit = 100;
};
Status list_attempts(Connection& connection, const AttemptFilter& filter,
                     std::vector<AttemptRecord>* out);
// How many attempts the filter matches, the limit aside: what history says it left out.
Status count_attempts(Connection& connection, const AttemptFilter& filter, int64_t* out);

// What a server can tell a client that asks before retrying (query-before-retry): the state of
// its request, read from the flow rows and the guards, never from the journal.
enum class RequestState { kNotFound, kProcessing, kSucceeded, kFailed };
std::string_view request_state_name(RequestState state);  // not_found, processing, ...
// Where one strategy's attempts kept their tokens or locks: a Redis URL (no password), or empty
// for the ledger itself; `requests` counts distinct requests. Ordered by place, then strategy.
struct GuardPlace {
  std::string place;
  std::string strategy;
  int64_t requests = 0;
};
Status list_guard_places(Connection& connection, std::vector<GuardPlace>* out);

struct RequestStatus {
  RequestState state = RequestState::kNotFound;
  std::string strategy;  // the strategy that wrote the first flow row
  std::string reason;    // why it failed
  int64_t flow_rows = 0;
};
// Succeeded if any flow row says so; failed if one says failed; processing if a flow row, a
// dedup record or a lock says the request is under way; otherwise not found.
Status query_request(Connection& connection, const std::string& source, const std::string& biz_seq,
                     RequestStatus* out);

// The sources that hold a request with this biz_seq (in its attempts or its flow rows), sorted:
// what a not_found answer names, since a request is known by its source and biz_seq together.
Status sources_with_biz_seq(Connection& connection, const std::string& biz_seq,
                            std::vector<std::string>* out);

// Who holds a request's key while it is in progress: a lock row (with its expiry), or an
// unfinished flow row or dedup record (no expiry). `by` is empty when nothing holds it.
struct KeyHolder {
  std::string by;
  int64_t since_ms = 0;
  int64_t until_ms = -1;       // -1: it does not expire by itself
  int64_t retry_after_ms = 0;  // until_ms - now, at least 0
};
Status find_key_holder(Connection& connection, const std::string& source,
                       const std::string& biz_seq, int64_t now_ms, KeyHolder* out);

struct IssuedToken {
  std::string token;
  int64_t expires_at_ms = 0;
};
// Stores a fresh token valid for `ttl_ms`; `entropy` supplies its 128 random bits.
// `store` is the ledger, or the guard store that keeps tokens (--redis).
Status issue_token(StatementRunner& store, const Clock& clock, uint64_t entropy_high,
                   uint64_t entropy_low, int64_t ttl_ms, IssuedToken* out);

}  // namespace idemlab
