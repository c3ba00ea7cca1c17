// The front door: the one way from a request, as a transport received it, to the attempt that
// runs it. Every transport (a strategy subcommand, idemlab http, serve, consume, explain) hands
// over the request's fields as text and the policy it runs under, and gets back the
// AttemptSetup, or the one refusal every transport words alike: a usage error that names the
// field and quotes what came. Nothing else builds an AttemptSetup, and the defaults an attempt
// runs with (core/limits.h's defaults) are applied here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attempt/direct.h"
#include "core/limits.h"

namespace idemlab {

enum class Transport : uint8_t {
  kCommandLine,  // a strategy subcommand: --biz-seq, --from, ...
  kHttp,         // idemlab http and serve: the Idempotency-Key header and a body
  kQueue,        // consume: a message's fields
  kRehearsal,    // explain's traced run on a scratch ledger
};

// What a request carried, as text, not yet checked.
struct RequestText {
  std::string source{kDefaultSource};  // who sent it; HTTP sends "http", the pay page "pay"
  std::optional<std::string> key;      // the biz_seq; none: refused as required
  std::string from;
  std::string to;
  std::string amount;
  std::string token;         // the token strategy's
  bool key_missing = false;  // sent without its key on purpose (--no-key)
};

// What the transport decides for every request it runs.
struct AttemptPolicy {
  Transport transport = Transport::kCommandLine;
  const Strategy* strategy = nullptr;
  Pitfall pitfall = Pitfall::kNone;
  bool unique_index = false;  // only where the strategy offers it
  int64_t lock_ttl_ms = defaults::kLockTtlMs;
  std::string owner;              // the lock's owner; "": a fresh one (new_owner)
  std::vector<FaultSpec> faults;  // those that hit this request, held to the surface already
  bool fence = false;             // lock-table --fence: the ledger checks the grant's fence
  bool allow_strategy_switch = false;
  bool log_attempt = true;
};

// Checks the request once, for every transport, and builds its attempt. Refusals are usage
// errors; a token strategy's request without its token carries reason "token_required".
Result<AttemptSetup> admit(const RequestText& text, const AttemptPolicy& policy);

// How each transport names the request's key in a refusal: --biz-seq, Idempotency-Key, biz_seq.
std::string_view key_field(Transport transport);

// A lock owner no other attempt in any process uses: "<transport>-<pid>-<n>".
std::string new_owner(Transport transport);

}  // namespace idemlab
