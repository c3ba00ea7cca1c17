// Money: amounts are integers in minor units (cents); text is a decimal with at most two
// fractional digits.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/limits.h"
#include "core/status.h"

namespace idemlab {

// The largest amount a ledger holds: a bound far below INT64_MAX so sums cannot overflow.
constexpr int64_t kMaxAmountMinor = limits::kMaxMoneyMinor;

// Parses "12", "12.3", "12.34" into minor units. Rejects signs, spaces, exponents, more than two
// fractional digits, zero when `allow_zero` is false, and anything above kMaxAmountMinor; the
// refusal names `field` and quotes the text as typed.
Status parse_amount(std::string_view text, bool allow_zero, int64_t* out_minor,
                    std::string_view field = "amount");

// 1234 -> "12.34"
std::string format_amount(int64_t minor);

}  // namespace idemlab
