// Connecting to PostgreSQL, bounded, and reading why a connection was not made.
#include "db/postgres/postgres_connect.h"

#include <fmt/format.h>

#include <optional>
#include <string_view>

#include "core/interrupt.h"
#include "db/server/connect_wait.h"
#include "db/server/refused.h"

namespace idemlab {

namespace {

// A connection that failed for want of a server taking the session asked (a standby answered
// "read-only", or a candidate is down): during a failover this looks the same as a URL that
// names no primary, and a client retries either (75). Refused credentials and an unknown
// database are definite: nothing there says a failover.
std::optional<Status> no_writable_candidate(const Locator& locator, const std::string& message) {
  for (std::string_view definite : {"authentication failed", "does not exist", "pg_hba.conf"})
    if (message.find(definite) != std::string::npos) return std::nullopt;
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

}  // namespace

Result<PGconn*> connect_within(const LibPq& pq, const Locator& locator, const char* const* keys,
                               const char* const* values) {
  PGconn* conn = pq.connect_start_params(keys, values, 0);
  if (!conn) return Status::internal("PQconnectStartParams: out of memory");
  const auto deadline = deadline_after(locator.connect_timeout_s);
  PostgresPollingStatusType polled = PGRES_POLLING_WRITING;
  while (pq.status(conn) != CONNECTION_BAD && polled != PGRES_POLLING_OK &&
         polled != PGRES_POLLING_FAILED) {
    const short events = polled == PGRES_POLLING_READING ? POLLIN : POLLOUT;
    const SocketWait waited = wait_for_socket(pq.socket(conn), events, deadline);
    if (waited != SocketWait::kReady) {
      pq.finish(conn);
      if (waited == SocketWait::kInterrupted) return check_interrupt();
      return no_answer(locator.shown, locator.connect_timeout_s);
    }
    polled = pq.connect_poll(conn);
  }
  if (pq.status(conn) == CONNECTION_OK) return conn;
  const std::string all = pq.error_message(conn) ? pq.error_message(conn) : "";
  const std::string why = first_line(all.c_str());
  pq.finish(conn);
  if (const std::optional<std::string> limit = postgres_refusal(why, locator.connect_timeout_s))
    return server_busy(locator.shown, *limit);
  if (std::optional<Status> none = no_writable_candidate(locator, all)) return *none;
  return Status::ledger(fmt::format("cannot connect to {}: {}", locator.shown, why));
}

}  // namespace idemlab
