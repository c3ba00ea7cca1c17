// Connecting to PostgreSQL, bounded, and reading why a connection was not made.
#include "db/postgres/postgres_connect.h"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/interrupt.h"
#include "db/server/connect_wait.h"
#include "db/server/refused.h"
#include "db/topology.h"

namespace idemlab {

namespace {

// Refused credentials and an unknown database: definite, on every host.
bool definite(const std::string& message) {
  for (std::string_view words : {"authentication failed", "does not exist", "pg_hba.conf"})
    if (message.find(words) != std::string::npos) return true;
  return false;
}

// A connection that failed for want of a server taking the session asked (a standby answered
// "read-only", or a candidate is down): during a failover this looks the same as a URL that
// names no primary, and a client retries either (75). Refused credentials and an unknown
// database are definite: nothing there says a failover.
std::optional<Status> no_writable_candidate(const Locator& locator, const std::string& message) {
  if (definite(message)) return std::nullopt;
  const bool read_only = message.find("session is read-only") != std::string::npos ||
                         message.find("in hot standby mode") != std::string::npos;
  if (!read_only && locator.topology.kind != TopologyKind::kCandidates) return std::nullopt;
  std::string lines;  // libpq says why for each host it tried, a line each
  for (size_t at = 0; at < message.size();) {
    const size_t end = std::min(message.find('\n', at), message.size());
    const std::string_view line = std::string_view(message).substr(at, end - at);
    if (line.starts_with("connection to server"))
      lines += (lines.empty() ? "" : "; ") + std::string(line.substr(line.find("failed: ") + 8));
    at = end + 1;
  }
  return Status::unavailable(
      read_only ? "read_only" : "no_primary",
      fmt::format("{}: no server there gave a {} session ({}): a failover may be under way; "
                  "nothing was sent: retry",
                  locator.shown,
                  locator.topology.session.empty() ? "usable" : locator.topology.session,
                  lines.empty() ? first_line(message.c_str()) : lines));
}

// One try of libpq's connect, every wait on the socket bounded by `deadline`. Sets *message
// to libpq's reason when it fails, *timed_out when the deadline passed first.
PGconn* connect_once(const LibPq& pq, const char* const* keys, const char* const* values,
                     std::chrono::steady_clock::time_point deadline, std::string* message,
                     bool* timed_out, Status* stopped) {
  PGconn* conn = pq.connect_start_params(keys, values, 0);
  if (!conn) {
    *stopped = Status::internal("PQconnectStartParams: out of memory");
    return nullptr;
  }
  PostgresPollingStatusType polled = PGRES_POLLING_WRITING;
  while (pq.status(conn) != CONNECTION_BAD && polled != PGRES_POLLING_OK &&
         polled != PGRES_POLLING_FAILED) {
    const short events = polled == PGRES_POLLING_READING ? POLLIN : POLLOUT;
    const SocketWait waited = wait_for_socket(pq.socket(conn), events, deadline);
    if (waited != SocketWait::kReady) {
      if (waited == SocketWait::kInterrupted) *stopped = check_interrupt();
      *timed_out = waited != SocketWait::kInterrupted;
      pq.finish(conn);
      return nullptr;
    }
    polled = pq.connect_poll(conn);
  }
  if (pq.status(conn) == CONNECTION_OK) return conn;
  *message = pq.error_message(conn) ? pq.error_message(conn) : "";
  pq.finish(conn);
  return nullptr;
}

// The hosts a connection may take, each as libpq's host and port settings: those of a list
// (failover candidates, one try each), or the settings as they are.
std::vector<std::pair<std::string, std::string>> hosts_to_try(const char* const* keys,
                                                              const char* const* values) {
  std::string hosts, ports;
  for (size_t i = 0; keys[i]; ++i) {
    if (std::string_view(keys[i]) == "host") hosts = values[i];
    if (std::string_view(keys[i]) == "port") ports = values[i];
  }
  const std::vector<std::string> host_list = split_members(hosts);
  const std::vector<std::string> port_list = split_members(ports);
  if (host_list.size() < 2) return {{hosts, ports}};
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < host_list.size(); ++i)
    out.emplace_back(host_list[i], port_list.size() == host_list.size() ? port_list[i] : ports);
  return out;
}

// Why no connection was made, from what libpq said.
Status refused(const Locator& locator, const std::string& all) {
  const std::string why = first_line(all.c_str());
  if (const std::optional<std::string> limit = postgres_refusal(why, locator.connect_timeout_s))
    return server_busy(locator.shown, *limit);
  if (std::optional<Status> none = no_writable_candidate(locator, all)) return *none;
  return Status::ledger(fmt::format("cannot connect to {}: {}", locator.shown, why));
}

}  // namespace

// Several hosts are tried one at a time, in order, each for connect_timeout, as libpq's own
// blocking connect does: a host that accepts the TCP connection and never answers (a stopped
// server) costs its own timeout, not the whole connection's. Those that timed out are told
// last, so that the reason first named is a host's that answered.
Result<PGconn*> connect_within(const LibPq& pq, const Locator& locator, const char* const* keys,
                               const char* const* values) {
  const auto hosts = hosts_to_try(keys, values);
  size_t count = 0;
  while (keys[count]) ++count;
  std::string answered, silent;
  for (const auto& [host, port] : hosts) {
    std::vector<const char*> these(values, values + count + 1);
    for (size_t i = 0; i < count; ++i) {
      if (std::string_view(keys[i]) == "host") these[i] = host.c_str();
      if (std::string_view(keys[i]) == "port") these[i] = port.c_str();
    }
    std::string message;
    bool timed_out = false;
    Status stopped = Status::ok();
    PGconn* conn = connect_once(pq, keys, these.data(), deadline_after(locator.connect_timeout_s),
                                &message, &timed_out, &stopped);
    if (conn) return conn;
    RETURN_IF_ERROR(stopped);
    if (timed_out)
      silent += fmt::format("connection to server at \"{}\", port {} failed: timeout expired\n",
                            host, port);
    answered += message;
    if (definite(message)) break;
  }
  if (answered.empty()) return no_answer(locator.shown, locator.connect_timeout_s);
  return refused(locator, answered + silent);
}

}  // namespace idemlab
