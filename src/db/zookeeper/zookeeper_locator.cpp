// Reading a --locks URL.
#include "db/zookeeper/zookeeper_locator.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/parse.h"

namespace idemlab {

namespace {

constexpr std::string_view kScheme = "zookeeper://";

Status bad(std::string_view text, std::string_view why) {
  return Status::usage(fmt::format(
      "--locks {}: {}; expected zookeeper://HOST:PORT[,HOST:PORT...][?session_ms=N]", text, why));
}

bool is_host_port(std::string_view text) {
  const size_t colon = text.rfind(':');
  int64_t port = 0;
  return colon != std::string_view::npos && colon > 0 &&
         parse_whole(text.substr(colon + 1), 1, 65535, &port);
}

Status parse_setting(std::string_view text, std::string_view pair, ZooKeeperLocator* out) {
  const size_t equals = pair.find('=');
  const std::string_view name = pair.substr(0, equals);
  const std::string_view digits = equals == std::string_view::npos ? "" : pair.substr(equals + 1);
  int64_t value = 0;
  if (name == "session_ms" && parse_whole(digits, 1, limits::kMaxDurationMs, &value))
    out->session_ms = static_cast<int>(value);
  else if (name == "connect_timeout" && parse_whole(digits, 1, 3600, &value))
    out->connect_timeout_s = static_cast<int>(value);
  else
    return bad(text, fmt::format("'{}': session_ms takes 1 to {} ms, connect_timeout 1 to 3600 s",
                                 pair, limits::kMaxDurationMs));
  return Status::ok();
}

}  // namespace

Status parse_zookeeper_locator(std::string_view text, ZooKeeperLocator* out) {
  if (!text.starts_with(kScheme)) return bad(text, "not a zookeeper:// URL");
  ZooKeeperLocator locator;
  locator.shown = std::string(text);
  std::string_view rest = text.substr(kScheme.size());
  std::string_view query;
  if (const size_t mark = rest.find('?'); mark != std::string_view::npos) {
    query = rest.substr(mark + 1);
    rest = rest.substr(0, mark);
  }
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.empty()) return bad(text, "no server named");
  for (size_t begin = 0; begin <= rest.size();) {  // every piece between commas, empty ones too
    const size_t comma = std::min(rest.find(',', begin), rest.size());
    const std::string_view host = rest.substr(begin, comma - begin);
    if (!is_host_port(host)) return bad(text, fmt::format("'{}' is not HOST:PORT", host));
    begin = comma + 1;
  }
  locator.hosts = std::string(rest);
  locator.topology.names = split_members(rest);
  locator.topology.kind =
      locator.topology.members() > 1 ? TopologyKind::kEnsemble : TopologyKind::kServer;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    RETURN_IF_ERROR(parse_setting(text, query.substr(0, amp), &locator));
    query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
  }
  *out = std::move(locator);
  return Status::ok();
}

}  // namespace idemlab
