// The connection handle, and the one place that picks a backend from where a ledger lives.
#include "db/connection.h"

#include <fmt/format.h>

#include <array>

#include "db/mariadb_backend.h"
#include "db/postgres_backend.h"
#include "db/sqlite_backend.h"

namespace idemlab {

namespace {
constexpr std::array<std::pair<Isolation, std::string_view>, 3> kIsolationNames{{
    {Isolation::kReadCommitted, "read-committed"},
    {Isolation::kRepeatableRead, "repeatable-read"},
    {Isolation::kSerializable, "serializable"},
}};
const std::string kClosed = "(closed)";
}  // namespace

Status Backend::send(Stmt, const Binds&) {
  return Status::internal("this engine runs statements only to completion");
}

Status Backend::lock_wait(int64_t, bool*, std::vector<int64_t>*) {
  return Status::internal("this engine does not say who waits for a lock");
}

Status Backend::lock_waits(const std::vector<int64_t>& sessions, std::vector<bool>* waiting,
                           std::vector<std::vector<int64_t>>* holders) {
  waiting->assign(sessions.size(), false);
  holders->assign(sessions.size(), {});
  for (size_t i = 0; i < sessions.size(); ++i) {
    bool one = false;
    if (Status status = lock_wait(sessions[i], &one, &(*holders)[i]); !status.is_ok())
      return status;
    (*waiting)[i] = one;
  }
  return Status::ok();
}

Status Backend::cancel_statement(int64_t) {
  return Status::internal("this engine cancels no statement");
}

std::optional<StepResult> Backend::receive(int) {
  return StepResult{StepCode::kError, 0, std::nullopt, "nothing was sent"};
}

std::string_view isolation_name(Isolation isolation) {
  for (const auto& [level, name] : kIsolationNames)
    if (level == isolation) return name;
  return "";
}

bool parse_isolation(std::string_view text, Isolation* out) {
  for (const auto& [level, name] : kIsolationNames)
    if (name == text) {
      *out = level;
      return true;
    }
  return false;
}

Connection::~Connection() = default;

Connection::Connection(Connection&& other) noexcept
    : backend_(std::move(other.backend_)), sqlite_(std::exchange(other.sqlite_, nullptr)) {}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    backend_ = std::move(other.backend_);
    sqlite_ = std::exchange(other.sqlite_, nullptr);
  }
  return *this;
}

Status Connection::open(const std::string& path, const ConnectionOptions& options,
                        Connection* out) {
  std::unique_ptr<SqliteBackend> sqlite;
  if (Status status = SqliteBackend::open(path, options, &sqlite); !status.is_ok()) return status;
  Connection connection;
  connection.sqlite_ = sqlite.get();
  connection.backend_ = std::move(sqlite);
  *out = std::move(connection);
  return Status::ok();
}

Status Connection::copy_database_to(Connection& to) {
  if (!sqlite_ || !to.sqlite_) return Status::internal("only a SQLite database can be copied");
  return sqlite_->copy_database_to(*to.sqlite_);
}

const std::string& Connection::path() const {
  return backend_ ? backend_->shown() : kClosed;
}

Status open_connection(const Locator& locator, const ConnectionOptions& options, Connection* out) {
  if (locator.engine == Engine::kSqlite) return Connection::open(locator.path, options, out);
  if (options.create)
    return Status::internal("a server database is created by its administrator, not opened");
  Connection connection;
  Status status = locator.engine == Engine::kPostgres
                      ? open_postgres(locator, options, &connection.backend_)
                      : open_mariadb(locator, options, &connection.backend_);
  if (!status.is_ok()) return status;
  *out = std::move(connection);
  return Status::ok();
}

Status step_error(const Connection& connection, const StepResult& result) {
  switch (result.code) {
    case StepCode::kDamaged:
      return Status::damaged(fmt::format("{} is damaged: {}", connection.path(), result.error));
    case StepCode::kBusy:
    case StepCode::kBusySnapshot:
    case StepCode::kLockTimeout:
    case StepCode::kDeadlock:
    case StepCode::kSerialization:
      return Status::busy(fmt::format("{} is locked: {}", connection.path(), result.error));
    case StepCode::kConnectionLost:
      return Status::ledger(
          fmt::format("lost the connection to {}: {}", connection.path(), result.error));
    default:
      // SQLITE_NOTADB: no ledger at all, like a file that is not SQLite's.
      if (result.error.find("not a database") != std::string::npos)
        return Status::ledger(
            fmt::format("{} is not an idemlab ledger: {}", connection.path(), result.error));
      return Status::internal(result.error);
  }
}

}  // namespace idemlab
