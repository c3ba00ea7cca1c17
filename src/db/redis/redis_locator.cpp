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

// The password before an '@' ("[:password@]rest"), taken off `rest`; "" when none is given.
std::string take_password(std::string_view* rest) {
  const size_t at = rest->rfind('@');
  if (at == std::string_view::npos) return "";
  const std::string_view user_info = rest->substr(0, at);
  *rest = rest->substr(at + 1);
  const size_t colon = user_info.find(':');
  return std::string(colon == std::string_view::npos ? "" : user_info.substr(colon + 1));
}

// "host:port" into `out`; false when it is not one.
bool parse_host_port(std::string_view text, std::pair<std::string, int>* out) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  int port = 0;
  if (!parse_number(text.substr(colon + 1), &port) || port < 1 || port > 65535) return false;
  std::string_view host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')  // [::1]
    host = host.substr(1, host.size() - 2);
  *out = {std::string(host), port};
  return true;
}

// The part of a redis-sentinel:// URL after its password: host:port[,host:port...]/MASTER.
Status parse_sentinels(std::string_view rest, RedisLocator* locator) {
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos || slash + 1 == rest.size())
    return Status::usage(fmt::format(
        "{}: name the primary the Sentinels monitor, e.g. redis-sentinel://127.0.0.1:26379/idemlab",
        locator->shown));
  locator->master_name = std::string(rest.substr(slash + 1));
  const std::string_view named = rest.substr(0, slash);
  if (named.empty() || named.back() == ',' || named.front() == ',' ||
      named.find(",,") != std::string_view::npos)
    return Status::usage(
        fmt::format("{}: each Sentinel is host:port, none left empty", locator->shown));
  for (std::string_view list = named; !list.empty();) {
    const size_t comma = std::min(list.find(','), list.size());
    std::pair<std::string, int> sentinel;
    if (!parse_host_port(list.substr(0, comma), &sentinel))
      return Status::usage(
          fmt::format("{}: each Sentinel is host:port, port from 1 to 65535", locator->shown));
    locator->sentinels.push_back(std::move(sentinel));
    list = list.substr(std::min(comma + 1, list.size()));
  }
  if (locator->sentinels.empty())
    return Status::usage(fmt::format("{}: no Sentinel named", locator->shown));
  return Status::ok();
}

// The query: connect_timeout=S, wait=N (replicas each guard write waits for), wait_ms=T.
Status parse_query(std::string_view query, RedisLocator* locator) {
  for (std::string_view rest = query; !rest.empty();) {
    const size_t amp = std::min(rest.find('&'), rest.size());
    const std::string_view pair = rest.substr(0, amp);
    rest = rest.substr(std::min(amp + 1, rest.size()));
    const size_t eq = pair.find('=');
    const std::string_view key = pair.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? "" : pair.substr(eq + 1);
    if (key == "connect_timeout") {
      RETURN_IF_ERROR(parse_connect_timeout(value, locator->shown, &locator->connect_timeout_s));
    } else if (key == "wait" || key == "wait_ms") {
      int* out = key == "wait" ? &locator->wait_replicas : &locator->wait_ms;
      if (!parse_number(value, out) || *out < (key == "wait" ? 0 : 1) || *out > 60000)
        return Status::usage(fmt::format("{}: {}={}: expected a whole number{}", locator->shown,
                                         key, value, key == "wait" ? " of replicas" : " of ms"));
    } else {
      return Status::usage(fmt::format(
          "{}: its query takes connect_timeout=S, wait=N and wait_ms=T", locator->shown));
    }
  }
  return Status::ok();
}

}  // namespace

Status parse_redis_locator(std::string_view text, RedisLocator* out) {
  RedisLocator locator;
  locator.shown = redact_locator(text);
  const auto bad = [&](std::string_view why) {
    return Status::usage(fmt::format("{}: {}", locator.shown, why));
  };
  const bool sentinel = text.starts_with("redis-sentinel://");
  if (!text.starts_with("redis://") && !sentinel)
    return bad(
        "expected redis:///path/to/socket, redis://host:port/N or "
        "redis-sentinel://host:port[,host:port...]/MASTER");
  std::string_view rest = text.substr(sentinel ? 17 : 8);
  if (const size_t query = rest.find('?'); query != std::string_view::npos) {
    RETURN_IF_ERROR(parse_query(rest.substr(query + 1), &locator));
    rest = rest.substr(0, query);
  }
  if (sentinel) {
    locator.password = take_password(&rest);
    RETURN_IF_ERROR(reveal_password(locator.shown, &locator.password));
    RETURN_IF_ERROR(parse_sentinels(rest, &locator));
    locator.topology.kind = TopologyKind::kSentinels;
    for (const auto& [host, port] : locator.sentinels)
      locator.topology.names.push_back(fmt::format("{}:{}", host, port));
    *out = std::move(locator);
    return Status::ok();
  }
  if (rest.starts_with("/")) {
    locator.socket = std::string(rest);
    locator.topology.names = {locator.socket};
    *out = std::move(locator);
    return Status::ok();
  }
  locator.password = take_password(&rest);
  RETURN_IF_ERROR(reveal_password(locator.shown, &locator.password));
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
  locator.topology.names = {fmt::format("{}:{}", locator.host, locator.port)};
  *out = std::move(locator);
  return Status::ok();
}

}  // namespace idemlab
