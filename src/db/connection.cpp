// The connection handle, and the one place that opens a backend from where a ledger lives.
#include "db/connection.h"

#include <fmt/format.h>

#include <cstdlib>

namespace idemlab {

namespace {
const std::string kClosed = "(closed)";
}  // namespace

Status NonBlocking::lock_wait(int64_t session, bool* waiting, std::vector<int64_t>* holders) {
  std::vector<bool> waits;
  std::vector<std::vector<int64_t>> held_by;
  RETURN_IF_ERROR(lock_waits({session}, &waits, &held_by));
  *waiting = waits.front();
  *holders = std::move(held_by.front());
  return Status::ok();
}

bool is_link_loss(const Status& status) {
  return status.reason() == "connection_lost" || status.reason() == "read_only" ||
         status.reason() == "node_not_ready";
}

const std::string& Connection::location() const {
  return backend_ ? backend_->location() : kClosed;
}

Result<Connection> open_connection(const Locator& locator, const ConnectionOptions& options) {
  const EngineTraits& traits = engine_traits(locator.engine);
  if (traits.server && options.create)
    return Status::internal("a server database is created by its administrator, not opened");
  ASSIGN_OR_RETURN(std::unique_ptr<Backend> backend, traits.open(locator, options));
  if (options.nonblocking && !backend->nonblocking())
    return Status::internal(
        fmt::format("{} cannot send statements without blocking", locator.shown));
  return Connection(std::move(backend));
}

Result<Connection> open_on_any_member(const Locator& locator, const ConnectionOptions& options) {
  if (!spreads_connections(locator.topology)) return open_connection(locator, options);
  Result<Connection> first = open_connection(locator, options);
  for (int member = 2; member <= locator.topology.members() && !first.is_ok(); ++member) {
    if (first.status().code() == StatusCode::kUsage ||
        first.status().code() == StatusCode::kInterrupted)
      break;
    Result<Connection> next = open_connection(on_member(locator, member), options);
    if (next.is_ok()) return next;
  }
  return first;
}

Result<ConnectionRoom> connection_room(Connection& connection) {
  const EngineTraits& traits = engine_traits(connection.engine());
  if (!traits.connection_room_sql) return Status::internal("this engine counts no connections");
  StepResult asked = connection.query(traits.connection_room_sql, {});
  if (!asked.ok() || !asked.row) return step_error(connection, asked);
  const Row& row = *asked.row;
  // MariaDB sends its status variables as text.
  const auto number = [](const Value& value) {
    if (const auto* text = std::get_if<std::string>(&value)) return std::atoll(text->c_str());
    return static_cast<long long>(as_int(value));
  };
  const ConnectionRoom server{number(row[0]), number(row[1]), "max_connections"};
  const ConnectionRoom user{number(row[2]), number(row[3]), std::string(traits.user_limit_name)};
  return user.limit > 0 && user.free() < server.free() ? user : server;
}

Status step_error(const StatementRunner& connection, const StepResult& result) {
  switch (result.code) {
    case StepCode::kDamaged:
      return Status::damaged(fmt::format("{} is damaged: {}", connection.location(), result.error));
    case StepCode::kBusy:
    case StepCode::kBusySnapshot:
    case StepCode::kLockTimeout:
    case StepCode::kDeadlock:
    case StepCode::kSerialization:
      return Status::busy(fmt::format("{} is locked: {}", connection.location(), result.error));
    case StepCode::kDiskFull:
      return Status::unavailable(
          "disk_full", fmt::format("the disk holding {} is full ({}): nothing was written",
                                   connection.location(), result.error));
    case StepCode::kIoError:
      return Status::internal(
          fmt::format("the disk holding {} failed: {}", connection.location(), result.error));
    case StepCode::kConnectionLost:
      return Status::unavailable(
          "connection_lost",
          fmt::format("lost the connection to {}: {}", connection.location(), result.error));
    case StepCode::kUnreplicated:
      return Status::unavailable(
          "unreplicated", fmt::format("{}: {}: the primary has the write, and a failover may "
                                      "forget it",
                                      connection.location(), result.error));
    case StepCode::kReadOnly:
      return Status::unavailable(
          "read_only", fmt::format("a read-only server answered ({}: {}): a failover may be "
                                   "under way; nothing was written by it, retry",
                                   connection.location(), result.error));
    case StepCode::kNotReady:
      return Status::unavailable("node_not_ready",
                                 fmt::format("a cluster node that is not serving now answered ({}: "
                                             "{}): nothing was written by it; retry",
                                             connection.location(), result.error));
    default:
      // SQLITE_NOTADB: no ledger at all, like a file that is not SQLite's.
      if (result.error.find("not a database") != std::string::npos)
        return Status::ledger(
            fmt::format("{} is not an idemlab ledger: {}", connection.location(), result.error));
      return Status::internal(result.error);
  }
}

}  // namespace idemlab
