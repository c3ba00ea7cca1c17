// Reading a --locks URL.
#include "db/zookeeper/zookeeper_locator.h"

#include <fmt/format.h>

#include "core/parse.h"
#include "db/member_list_url.h"

namespace idemlab {

namespace {

constexpr std::string_view kScheme = "zookeeper://";

Status bad(std::string_view text, std::string_view why) {
  return Status::usage(fmt::format(
      "--locks {}: {}; expected zookeeper://HOST:PORT[,HOST:PORT...][?session_ms=N]", text, why));
}

Status parse_setting(std::string_view text, std::string_view name, std::string_view digits,
                     ZooKeeperLocator* out) {
  int64_t value = 0;
  if (name == "session_ms" && parse_whole(digits, 1, limits::kMaxDurationMs, &value))
    out->session_ms = static_cast<int>(value);
  else if (name == "connect_timeout" && parse_whole(digits, 1, 3600, &value))
    out->connect_timeout_s = static_cast<int>(value);
  else
    return bad(text, fmt::format("'{}={}': session_ms takes 1 to {} ms, connect_timeout 1 to "
                                 "3600 s",
                                 name, digits, limits::kMaxDurationMs));
  return Status::ok();
}

}  // namespace

Status parse_zookeeper_locator(std::string_view text, ZooKeeperLocator* out) {
  MemberListUrl url;
  RETURN_IF_ERROR(parse_member_list_url(
      kScheme, text, [&](std::string_view why) { return bad(text, why); }, &url));
  ZooKeeperLocator locator;
  locator.shown = std::string(text);
  locator.hosts = std::move(url.hosts);
  locator.topology = std::move(url.topology);
  for (const auto& [name, value] : url.settings)
    RETURN_IF_ERROR(parse_setting(text, name, value, &locator));
  *out = std::move(locator);
  return Status::ok();
}

}  // namespace idemlab
