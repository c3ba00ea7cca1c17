// Reading a --redis URL.
#include "db/redis/redis_locator.h"

#include <fmt/format.h>

#include <charconv>

#include "db/locator.h"

namespace idemlab {

namespace {

bool parse_number(std::string_view text, int* out) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

Status parse_redis_locator(std::string_view text, RedisLocator* out) {
  RedisLocator locator;
  locator.shown = redact_locator(text);
  const auto bad = [&](std::string_view why) {
    return Status::usage(fmt::format("{}: {}", locator.shown, why));
  };
  if (!text.starts_with("redis://"))
    return bad("expected redis:///path/to/socket or redis://host:port/N");
  std::string_view rest = text.substr(8);
  if (const size_t query = rest.find('?'); query != std::string_view::npos) {
    const std::string_view pair = rest.substr(query + 1);
    if (!pair.starts_with("connect_timeout=")) return bad("its query takes connect_timeout=S only");
    RETURN_IF_ERROR(
        parse_connect_timeout(pair.substr(16), locator.shown, &locator.connect_timeout_s));
    rest = rest.substr(0, query);
  }
  if (rest.starts_with("/")) {
    locator.socket = std::string(rest);
    *out = std::move(locator);
    return Status::ok();
  }
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) {
    const std::string_view user_info = rest.substr(0, at);
    const size_t colon = user_info.find(':');
    locator.password =
        std::string(colon == std::string_view::npos ? "" : user_info.substr(colon + 1));
    rest = rest.substr(at + 1);
  }
  const size_t slash = rest.find('/');
  if (slash != std::string_view::npos &&
      (!parse_number(rest.substr(slash + 1), &locator.database) || locator.database < 0))
    return bad("the database is a number, e.g. redis://127.0.0.1:6379/0");
  std::string_view host_port = rest.substr(0, slash);
  const size_t colon = host_port.rfind(':');
  if (colon != std::string_view::npos) {
    if (!parse_number(host_port.substr(colon + 1), &locator.port) || locator.port < 1 ||
        locator.port > 65535)
      return bad("the port is a number from 1 to 65535");
    host_port = host_port.substr(0, colon);
  }
  if (host_port.empty()) return bad("no host");
  locator.host = std::string(host_port);
  *out = std::move(locator);
  return Status::ok();
}

}  // namespace idemlab
