// A payer's per-transfer limit, changed three ways: set absolutely (naturally idempotent: a
// repeat leaves the same limit), raised by an amount (a repeat raises it again), or removed
// (naturally idempotent: the second removal finds nothing). The smallest real operations that
// show which writes survive a retry without a guard.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/clock.h"
#include "db/connection.h"

namespace idemlab {

enum class LimitChange { kSet, kRaise, kRemove };

struct LimitResult {
  bool account_found = false;
  std::optional<int64_t> before_minor;  // no value: the account had no limit
  std::optional<int64_t> after_minor;
  bool changed() const { return before_minor != after_minor; }
};

// Applies `change` (with `amount_minor` for set and raise) in one write transaction. Raising a
// limit that does not exist changes nothing (after == before == none).
Status change_limit(Connection& connection, const Clock& clock, LimitChange change,
                    const std::string& account, int64_t amount_minor, LimitResult* out);

// The account's limit, read without a transaction.
Status read_limit(Connection& connection, const std::string& account, LimitResult* out);

}  // namespace idemlab
