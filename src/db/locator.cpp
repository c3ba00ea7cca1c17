// Parsing --db: a file path or a server URL.
#include "db/locator.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <tuple>

#include "core/parse.h"

namespace idemlab {

namespace {

constexpr std::array<std::pair<std::string_view, Engine>, 4> kSchemes{{
    {"postgresql", Engine::kPostgres},
    {"postgres", Engine::kPostgres},
    {"mariadb", Engine::kMariadb},
    {"mysql", Engine::kMariadb},
}};

// The length of "scheme" in "scheme://...", or 0 when `text` does not start like a URL.
size_t scheme_length(std::string_view text) {
  const size_t marker = text.find("://");
  if (marker == std::string_view::npos || marker == 0 || !std::isalpha(uint8_t(text[0]))) return 0;
  const auto scheme_char = [](char c) {
    return std::isalnum(uint8_t(c)) || c == '+' || c == '-' || c == '.';
  };
  return std::all_of(text.begin(), text.begin() + marker, scheme_char) ? marker : 0;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(std::tolower(uint8_t(c)));
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

bool percent_decode(std::string_view text, std::string* out) {
  out->clear();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out->push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size()) return false;  // '%' needs two hex digits after it
    const int high = hex_digit(text[i + 1]);
    const int low = hex_digit(text[i + 2]);
    if (high < 0 || low < 0) return false;
    out->push_back(static_cast<char>(high * 16 + low));
    if (out->back() == '\0') return false;
    i += 2;
  }
  return true;
}

Status bad_url(const std::string& shown, std::string_view why) {
  return Status::usage(fmt::format("{}: {}", shown, why));
}

// user[:password]@ before the host, if any.
Status read_credentials(std::string_view userinfo, const std::string& shown, Locator* out) {
  const size_t colon = userinfo.find(':');
  if (!percent_decode(userinfo.substr(0, colon), &out->user))
    return bad_url(shown, "the user name has a bad %-escape");
  if (colon != std::string_view::npos &&
      !percent_decode(userinfo.substr(colon + 1), &out->password))
    return bad_url(shown, "the password has a bad %-escape");
  return reveal_password(shown, &out->password);
}

Status read_host_port(std::string_view authority, const std::string& shown, Locator* out) {
  const size_t colon = authority.rfind(':');
  if (colon != std::string_view::npos) {
    int64_t port = 0;
    if (!parse_whole(authority.substr(colon + 1), 1, 65535, &port))
      return bad_url(shown, "the port is not a number from 1 to 65535");
    out->port = static_cast<int>(port);
    authority = authority.substr(0, colon);
  }
  if (!percent_decode(authority, &out->host)) return bad_url(shown, "the host has a bad %-escape");
  return Status::ok();
}

}  // namespace

Status parse_connect_timeout(std::string_view value, const std::string& shown, int* out_s) {
  int64_t seconds = 0;
  if (!parse_whole(value, 1, limits::kMaxServerWaitS, &seconds))
    return bad_url(shown, fmt::format("connect_timeout is a whole number of seconds from 1 to {}",
                                      limits::kMaxServerWaitS));
  *out_s = static_cast<int>(seconds);
  return Status::ok();
}

namespace {

Status read_parameters(std::string_view query, const std::string& shown, Locator* out) {
  while (!query.empty()) {
    const size_t amp = std::min(query.find('&'), query.size());
    const std::string_view pair = query.substr(0, amp);
    const size_t equals = pair.find('=');
    std::string key, value;
    if (equals == std::string_view::npos || !percent_decode(pair.substr(0, equals), &key) ||
        !percent_decode(pair.substr(equals + 1), &value) || key.empty())
      return bad_url(shown, "its query is not key=value pairs joined by &");
    if (key == "connect_timeout") {
      RETURN_IF_ERROR(parse_connect_timeout(value, shown, &out->connect_timeout_s));
    } else {
      out->parameters.emplace_back(std::move(key), std::move(value));
    }
    query = amp < query.size() ? query.substr(amp + 1) : std::string_view();
  }
  return Status::ok();
}

// host:port,host:port,...: every node, each with its port.
Status read_nodes(std::string_view authority, const std::string& shown, Locator* out) {
  while (true) {
    const size_t comma = std::min(authority.find(','), authority.size());
    Locator node;
    RETURN_IF_ERROR(read_host_port(authority.substr(0, comma), shown, &node));
    if (node.host.empty() || node.port == 0)
      return bad_url(shown, "each of several hosts is HOST:PORT");
    out->nodes.emplace_back(node.host, node.port);
    if (comma == authority.size()) return Status::ok();
    authority = authority.substr(comma + 1);
  }
}

// A session setting a MariaDB URL may carry, and its range.
struct SessionSetting {
  std::string_view key;
  int64_t most;
};
constexpr SessionSetting kSessionSettings[] = {{"wsrep_sync_wait", 15},
                                               {"wsrep_retry_autocommit", 10000}};

// The servers several hosts name: a MariaDB URL's are a Galera cluster's nodes; a PostgreSQL
// URL's (in the authority, or libpq's ?host=A,B) are failover candidates, one of which the
// client library takes as target_session_attrs asks.
void read_topology(Locator* out) {
  Topology& topology = out->topology;
  std::string session;
  for (const auto& [host, port] : out->nodes)
    topology.names.push_back(fmt::format("{}:{}", host, port));
  for (const auto& [key, value] : out->parameters) {
    if (key == "target_session_attrs") session = value;
    if (key == "host") topology.names = split_members(value);  // libpq's list wins
  }
  if (topology.names.empty() && !out->host.empty())
    topology.names.push_back(out->port > 0 ? fmt::format("{}:{}", out->host, out->port)
                                           : out->host);
  if (topology.members() > 1)
    topology.kind =
        out->engine == Engine::kMariadb ? TopologyKind::kCluster : TopologyKind::kCandidates;
  if (topology.kind == TopologyKind::kCandidates) topology.session = session;
}

// A key given twice is refused: which one would count is a guess.
Status check_repeated_keys(const std::string& shown, const Locator& locator) {
  const auto& all = locator.parameters;
  for (auto at = all.begin(); at != all.end(); ++at)
    if (std::any_of(all.begin(), at, [&](const auto& seen) { return seen.first == at->first; }))
      return bad_url(shown, fmt::format("{}= is given twice", at->first));
  return Status::ok();
}

// ?node=N picks the node of a cluster URL; the wsrep session settings are whole numbers.
Status check_cluster_parameters(const std::string& shown, Locator* out) {
  RETURN_IF_ERROR(check_repeated_keys(shown, *out));
  read_topology(out);
  for (const auto& [key, value] : out->parameters) {
    int64_t number = 0;
    if (key == "node") {
      if (out->topology.kind != TopologyKind::kCluster)
        return bad_url(shown,
                       "node= picks a node of a Galera cluster's URL (mariadb://H1:P1,H2:P2/db)");
      if (!parse_whole(value, 1, out->topology.members(), &number))
        return bad_url(
            shown, fmt::format("node= is a node's number, from 1 to {}", out->topology.members()));
      out->topology.pinned = static_cast<int>(number);
    }
    for (const SessionSetting& setting : kSessionSettings)
      if (key == setting.key && !parse_whole(value, 0, setting.most, &number))
        return bad_url(shown, fmt::format("{}= is a whole number from 0 to {}", key, setting.most));
  }
  if (out->topology.kind == TopologyKind::kCluster) {
    out->node = std::max(out->topology.pinned, 1);
    std::tie(out->host, out->port) = out->nodes[static_cast<size_t>(out->node - 1)];
  }
  return Status::ok();
}

Status parse_server_url(std::string_view rest, const std::string& shown, Locator* out) {
  const size_t query_at = std::min(rest.find('?'), rest.size());
  std::string_view query = query_at < rest.size() ? rest.substr(query_at + 1) : "";
  rest = rest.substr(0, query_at);
  const size_t slash = std::min(rest.find('/'), rest.size());
  std::string_view authority = rest.substr(0, slash);
  const std::string_view database = slash < rest.size() ? rest.substr(slash + 1) : "";
  const size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    RETURN_IF_ERROR(read_credentials(authority.substr(0, at), shown, out));
    authority = authority.substr(at + 1);
  }
  if (authority.find(',') != std::string_view::npos)
    RETURN_IF_ERROR(read_nodes(authority, shown, out));
  else
    RETURN_IF_ERROR(read_host_port(authority, shown, out));
  if (!percent_decode(database, &out->database) || out->database.empty() ||
      out->database.find('/') != std::string::npos)
    return bad_url(shown,
                   "it names no database (scheme://[user[:password]@][host][:port]/DATABASE)");
  RETURN_IF_ERROR(read_parameters(query, shown, out));
  return check_cluster_parameters(shown, out);
}

}  // namespace

std::string redact_locator(std::string_view text) {
  const size_t scheme = scheme_length(text);
  if (scheme == 0) return std::string(text);
  const size_t start = scheme + 3;
  const size_t end = std::min({text.find('/', start), text.find('?', start), text.size()});
  const size_t at = text.substr(0, end).rfind('@');
  if (at == std::string_view::npos || at < start) return std::string(text);
  const size_t colon = text.substr(start, at - start).find(':');
  if (colon == std::string_view::npos) return std::string(text);
  return fmt::format("{}***{}", text.substr(0, start + colon + 1), text.substr(at));
}

Status reveal_password(const std::string& shown, std::string* password) {
  if (*password != kHiddenPassword) return Status::ok();
  const char* given = std::getenv("IDEMLAB_PASSWORD");
  if (given == nullptr)
    return Status::usage(fmt::format(
        "{}: its password is hidden (***), as idemlab prints it: set IDEMLAB_PASSWORD to the "
        "password, or write it in the URL",
        shown));
  *password = given;
  return Status::ok();
}

std::string hidden_password_note(std::string_view command) {
  if (command.find(fmt::format(":{}@", kHiddenPassword)) == std::string_view::npos) return "";
  return "(a password is hidden as ***: export IDEMLAB_PASSWORD=... first, and the line pastes "
         "as it is)";
}

Status parse_locator(std::string_view text, Locator* out) {
  Locator locator;
  locator.shown = redact_locator(text);
  const size_t scheme = scheme_length(text);
  if (scheme == 0) {
    if (text.empty()) return Status::usage("empty: name a ledger file or a server URL");
    locator.path = std::string(text);
    *out = std::move(locator);
    return Status::ok();
  }
  std::string name(text.substr(0, scheme));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](char c) { return static_cast<char>(std::tolower(uint8_t(c))); });
  const auto known = std::find_if(kSchemes.begin(), kSchemes.end(),
                                  [&](const auto& entry) { return entry.first == name; });
  if (known == kSchemes.end())
    return bad_url(locator.shown,
                   fmt::format("unknown scheme '{}': a ledger is a file path, postgresql://... "
                               "or mariadb://...",
                               name));
  locator.engine = known->second;
  RETURN_IF_ERROR(parse_server_url(text.substr(scheme + 3), locator.shown, &locator));
  *out = std::move(locator);
  return Status::ok();
}

Status parse_locator_of(std::string_view text, std::string_view scheme, std::string_view option,
                        Locator* out) {
  const auto wanted = std::find_if(kSchemes.begin(), kSchemes.end(),
                                   [&](const auto& entry) { return entry.first == scheme; });
  if (wanted == kSchemes.end()) return Status::internal(fmt::format("no scheme {}", scheme));
  Locator locator;
  RETURN_IF_ERROR(parse_locator(text, &locator));
  if (locator.engine != wanted->second)
    return Status::usage(fmt::format("{} takes a {} URL, not {}", option,
                                     engine_name(wanted->second), locator.shown));
  *out = std::move(locator);
  return Status::ok();
}

Locator on_member(const Locator& locator, int member) {
  if (member == 0 || locator.topology.kind != TopologyKind::kCluster) return locator;
  Locator out = locator;
  out.node = member;
  std::tie(out.host, out.port) = locator.nodes.at(static_cast<size_t>(member - 1));
  return out;
}

std::string url_for_member(std::string_view db, const Locator& locator, int member) {
  if (member == 0 || !spreads_connections(locator.topology)) return std::string(db);
  return fmt::format("{}{}node={}", db, db.find('?') == std::string_view::npos ? '?' : '&', member);
}

bool is_ledger_scheme(std::string_view scheme) {
  return std::any_of(kSchemes.begin(), kSchemes.end(),
                     [&](const auto& entry) { return entry.first == scheme; });
}

bool names_embedded_engine(std::string_view text) {
  return text == engine_name(kEmbeddedEngine);
}

}  // namespace idemlab
