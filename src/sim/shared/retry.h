// Retry policy of a simulated client: how many attempts, how long it waits for an answer,
// how it backs off, whether it keeps its key, and whether it asks for the status first.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/random.h"
#include "core/status.h"

namespace idemlab {

enum class Backoff { kConstant, kExponential };
enum class Jitter { kNone, kFull, kEqual };

struct RetryPolicy {
  int attempts = 5;                         // attempts=  (1: never retry)
  int64_t timeout_ms = 300;                 // timeout-ms=: how long the client waits for one answer
  Backoff backoff = Backoff::kExponential;  // backoff=constant|exp
  int64_t base_ms = 50;                     // base-ms=
  int64_t cap_ms = 2000;                    // cap-ms=
  Jitter jitter = Jitter::kFull;            // jitter=none|full|equal
  bool fresh_key = false;                   // key=same|fresh: fresh is the classic bug
  bool query_first = false;  // query=yes|no: ask the server for the flow's status before a retry

  // Canonical text, e.g. "attempts=5,timeout-ms=300,backoff=exp,...": parses back to itself.
  std::string text() const;
  // The same, naming attempts and only the fields that differ from the default: what a
  // reproduce line prints, short enough to fit a projector's terminal.
  std::string changed_text() const;
  // How long to wait before retry number `retry` (1 = the first retry).
  int64_t delay_ms(int retry, Random& random) const;
};

// Parses "key=value,..." over the defaults. Unknown keys and bad values are usage errors.
Status parse_retry(std::string_view text, RetryPolicy* policy);

}  // namespace idemlab
