// Reading an etcd --locks URL.
#include "db/etcd/etcd_locator.h"

#include <fmt/format.h>

#include "core/parse.h"
#include "db/member_list_url.h"

namespace idemlab {

Status parse_etcd_locator(std::string_view text, EtcdLocator* out) {
  const auto bad = [&](std::string_view why) {
    return Status::usage(fmt::format(
        "--locks {}: {}; expected etcd://HOST:PORT[,HOST:PORT...][?connect_timeout=S]", text, why));
  };
  MemberListUrl url;
  RETURN_IF_ERROR(parse_member_list_url("etcd://", text, bad, &url));
  EtcdLocator locator;
  locator.shown = std::string(text);
  locator.members = split_members(url.hosts);
  locator.topology = std::move(url.topology);
  for (const auto& [name, value] : url.settings) {
    int64_t seconds = 0;
    if (name != "connect_timeout" || !parse_whole(value, 1, 3600, &seconds))
      return bad(fmt::format("'{}={}': connect_timeout takes 1 to 3600 s", name, value));
    locator.connect_timeout_s = static_cast<int>(seconds);
  }
  *out = std::move(locator);
  return Status::ok();
}

}  // namespace idemlab
