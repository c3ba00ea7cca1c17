// Reading a URL of HOST:PORT members.
#include "db/member_list_url.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/parse.h"

namespace idemlab {

namespace {

bool is_host_port(std::string_view text) {
  const size_t colon = text.rfind(':');
  int64_t port = 0;
  return colon != std::string_view::npos && colon > 0 &&
         parse_whole(text.substr(colon + 1), 1, 65535, &port);
}

}  // namespace

Status parse_member_list_url(std::string_view scheme, std::string_view text,
                             const std::function<Status(std::string_view)>& bad,
                             MemberListUrl* out) {
  if (!text.starts_with(scheme)) return bad(fmt::format("not a {} URL", scheme));
  std::string_view rest = text.substr(scheme.size());
  std::string_view query;
  if (const size_t mark = rest.find('?'); mark != std::string_view::npos) {
    query = rest.substr(mark + 1);
    rest = rest.substr(0, mark);
  }
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.empty()) return bad("no server named");
  for (size_t begin = 0; begin <= rest.size();) {  // every piece between commas, empty ones too
    const size_t comma = std::min(rest.find(',', begin), rest.size());
    const std::string_view host = rest.substr(begin, comma - begin);
    if (!is_host_port(host)) return bad(fmt::format("'{}' is not HOST:PORT", host));
    begin = comma + 1;
  }
  MemberListUrl url;
  url.hosts = std::string(rest);
  url.topology.names = split_members(rest);
  url.topology.kind = url.topology.members() > 1 ? TopologyKind::kEnsemble : TopologyKind::kServer;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const size_t equals = pair.find('=');
    url.settings.emplace_back(pair.substr(0, equals),
                              equals == std::string_view::npos ? "" : pair.substr(equals + 1));
    query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
  }
  *out = std::move(url);
  return Status::ok();
}

}  // namespace idemlab
