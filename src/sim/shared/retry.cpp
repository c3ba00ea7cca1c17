// Retry policies.
#include "sim/shared/retry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

#include "core/limits.h"
#include "core/parse.h"

namespace idemlab {

namespace {
Status parse_number(std::string_view key, std::string_view value, int64_t low, int64_t high,
                    int64_t* out) {
  if (parse_whole(value, low, high, out)) return Status::ok();
  return Status::usage(
      fmt::format("--retry {}={}: expected a whole number from {} to {}", key, value, low, high));
}
}  // namespace

namespace {
// Each field as key=value, in the canonical order.
std::vector<std::string> fields(const RetryPolicy& p) {
  return {fmt::format("attempts={}", p.attempts),
          fmt::format("timeout-ms={}", p.timeout_ms),
          fmt::format("backoff={}", p.backoff == Backoff::kConstant ? "constant" : "exp"),
          fmt::format("base-ms={}", p.base_ms),
          fmt::format("cap-ms={}", p.cap_ms),
          fmt::format("jitter={}", p.jitter == Jitter::kNone   ? "none"
                                   : p.jitter == Jitter::kFull ? "full"
                                                               : "equal"),
          fmt::format("key={}", p.fresh_key ? "fresh" : "same"),
          fmt::format("query={}", p.query_first ? "yes" : "no")};
}
}  // namespace

std::string RetryPolicy::text() const {
  return fmt::format("{}", fmt::join(fields(*this), ","));
}

std::string RetryPolicy::changed_text() const {
  const std::vector<std::string> mine = fields(*this);
  const std::vector<std::string> base = fields(RetryPolicy{});
  std::vector<std::string> out{mine[0]};
  for (size_t i = 1; i < mine.size(); ++i)
    if (mine[i] != base[i]) out.push_back(mine[i]);
  return fmt::format("{}", fmt::join(out, ","));
}

int64_t RetryPolicy::delay_ms(int retry, Random& random) const {
  int64_t delay = base_ms;
  if (backoff == Backoff::kExponential)
    for (int i = 1; i < retry && delay < cap_ms; ++i) delay *= 2;
  delay = std::min(delay, cap_ms);
  switch (jitter) {
    case Jitter::kNone:
      return delay;
    case Jitter::kFull:
      return random.between(0, delay);
    case Jitter::kEqual:
      return delay / 2 + random.between(0, delay - delay / 2);
  }
  return delay;
}

Status parse_retry(std::string_view text, RetryPolicy* policy) {
  RetryPolicy result = *policy;
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  std::string_view bad;
  if (!split_pairs(text, &pairs, &bad))
    return Status::usage(fmt::format("--retry: expected key=value, got '{}'", bad));
  for (const auto& [key, value] : pairs) {
    int64_t number = 0;
    Status status;
    auto choose = [&](std::initializer_list<std::string_view> words) -> int {
      int index = 0;
      for (std::string_view word : words) {
        if (word == value) return index;
        ++index;
      }
      status =
          Status::usage(fmt::format("--retry {}={}: not one of the allowed words", key, value));
      return -1;
    };
    if (key == "attempts") {
      status = parse_number(key, value, 1, limits::kMaxAttempts, &number);
      result.attempts = static_cast<int>(number);
    } else if (key == "timeout-ms") {
      status = parse_number(key, value, 1, limits::kMaxDurationMs, &result.timeout_ms);
    } else if (key == "base-ms") {
      status = parse_number(key, value, 0, limits::kMaxDurationMs, &result.base_ms);
    } else if (key == "cap-ms") {
      status = parse_number(key, value, 0, limits::kMaxDurationMs, &result.cap_ms);
    } else if (key == "backoff") {
      int choice = choose({"constant", "exp"});
      if (choice >= 0) result.backoff = choice == 0 ? Backoff::kConstant : Backoff::kExponential;
    } else if (key == "jitter") {
      int choice = choose({"none", "full", "equal"});
      if (choice >= 0) result.jitter = static_cast<Jitter>(choice);
    } else if (key == "key") {
      int choice = choose({"same", "fresh"});
      if (choice >= 0) result.fresh_key = choice == 1;
    } else if (key == "query") {
      int choice = choose({"no", "yes"});
      if (choice >= 0) result.query_first = choice == 1;
    } else {
      return Status::usage(fmt::format(
          "--retry: unknown key '{}' (attempts, timeout-ms, backoff, base-ms, cap-ms, jitter, "
          "key, query)",
          key));
    }
    if (!status.is_ok()) return status;
  }
  *policy = result;
  return Status::ok();
}

}  // namespace idemlab
