// Parsing and printing amounts.
#include "ledger/money.h"

#include <fmt/format.h>

#include "core/quote.h"

namespace idemlab {

Status parse_amount(std::string_view text, bool allow_zero, int64_t* out_minor,
                    std::string_view field) {
  auto bad = [&](std::string_view why) {
    return Status::usage(fmt::format("invalid {} {}: {}", field, in_quotes(text), why));
  };
  if (text.empty()) return bad("empty");
  if (text[0] == '-' || text[0] == '+')
    return bad(allow_zero ? "a sign is not taken; write the amount alone, e.g. 12.34"
                          : "must be greater than zero, written without a sign, e.g. 12.34");
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  const std::string too_large =
      fmt::format("too large; at most {}", format_amount(kMaxAmountMinor));
  if (whole.empty()) return bad("expected digits before the decimal point");
  if (dot != std::string_view::npos && fraction.empty())
    return bad("expected digits after the decimal point");
  if (fraction.size() > 2) return bad("at most two fractional digits");
  int64_t minor = 0;
  for (char c : whole) {
    if (c < '0' || c > '9') return bad("expected a decimal number such as 12.34");
    minor = minor * 10 + (c - '0');
    if (minor > kMaxAmountMinor) return bad(too_large);
  }
  for (size_t i = 0; i < 2; ++i) {
    int digit = 0;
    if (i < fraction.size()) {
      char c = fraction[i];
      if (c < '0' || c > '9') return bad("expected a decimal number such as 12.34");
      digit = c - '0';
    }
    minor = minor * 10 + digit;
  }
  if (minor > kMaxAmountMinor) return bad(too_large);
  if (minor == 0 && !allow_zero) return bad("must be greater than zero");
  *out_minor = minor;
  return Status::ok();
}

std::string format_amount(int64_t minor) {
  const char* sign = minor < 0 ? "-" : "";
  uint64_t magnitude = minor < 0 ? 0 - static_cast<uint64_t>(minor) : static_cast<uint64_t>(minor);
  return fmt::format("{}{}.{:02}", sign, magnitude / 100, magnitude % 100);
}

}  // namespace idemlab
