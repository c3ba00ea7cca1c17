// libpq: connect, run each statement with its values sent apart from it, map SQLSTATEs.
#include "db/postgres/postgres_backend.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <optional>
#include <vector>

#include "core/client_library.h"
#include "core/interrupt.h"
#include "db/connection.h"
#include "db/postgres/commit_notice.h"
#include "db/postgres/libpq.h"
#include "db/postgres/postgres_connect.h"
#include "db/server/connect_wait.h"
#include "db/server/refused.h"
#include "db/server/server_text.h"
#include "db/server/socket_wait.h"

namespace idemlab {

namespace {

constexpr Oid kBool = 16, kInt8 = 20, kInt2 = 21, kInt4 = 23, kText = 25, kNumeric = 1700;

struct Params {
  std::vector<Oid> types;
  std::vector<std::string> texts;
  std::vector<const char*> values;
  std::vector<bool> nulls;
};

Params params_for(const std::vector<std::string>& order, const Binds& binds) {
  Params params;
  for (const std::string& name : order) {
    const Value* value = nullptr;
    for (const Bind& bind : binds)
      if (name == bind.name) value = &bind.value;
    if (!value || is_null(*value)) {  // every value idemlab leaves NULL is text
      params.types.push_back(kText);
      params.texts.emplace_back();
      params.nulls.push_back(true);
      continue;
    }
    params.nulls.push_back(false);
    if (const auto* number = std::get_if<int64_t>(value)) {
      params.types.push_back(kInt8);
      params.texts.push_back(std::to_string(*number));
    } else {
      params.types.push_back(kText);
      params.texts.push_back(std::get<std::string>(*value));
    }
  }
  for (size_t i = 0; i < order.size(); ++i)
    params.values.push_back(params.nulls[i] ? nullptr : params.texts[i].c_str());
  return params;
}

// A named statement split once: its text with $n and the names in $-number order.
struct Split {
  SqlTemplate sql;
  std::string numbered;
  std::vector<std::string> order;
};

class PostgresBackend final : public Backend, public NonBlocking {
 public:
  PostgresBackend(const LibPq* pq, PGconn* conn, std::string shown)
      : pq_(pq), conn_(conn), shown_(std::move(shown)) {}
  ~PostgresBackend() override { pq_->finish(conn_); }
  Engine engine() const override { return Engine::kPostgres; }
  NonBlocking* nonblocking() override { return this; }

  // Each statement goes as one PQexecParams: parse, bind and run in one round trip. A
  // one-attempt process runs each statement once, where preparing first would cost a second.
  StepResult run(Stmt id, const Binds& binds) override {
    const Split& statement = split_for(id);
    Params params = params_for(statement.order, binds);
    if (trace_) (*trace_)(sql_with_values(statement.sql, binds));
    const WaitingSocket waiting(pq_->socket(conn_));  // a signal to stop ends the wait at once
    return result_of(
        pq_->exec_params(conn_, statement.numbered.c_str(), static_cast<int>(params.values.size()),
                         params.types.data(), params.values.data(), nullptr, nullptr, 0),
        nullptr);
  }
  Status send(Stmt id, const Binds& binds) override;
  std::optional<StepResult> receive(int wait_us) override;
  int64_t session_id() const override { return pq_->backend_pid(conn_); }
  Status lock_waits(const std::vector<int64_t>& sessions, std::vector<bool>* waiting,
                    std::vector<std::vector<int64_t>>* holders) override {
    waiting->assign(sessions.size(), false);
    holders->assign(sessions.size(), {});
    std::string list;
    for (int64_t session : sessions) list += (list.empty() ? "" : ",") + std::to_string(session);
    const RowSink sink = [&](const Row& row) {
      const auto at = std::find(sessions.begin(), sessions.end(), as_int(row[0]));
      if (at == sessions.end()) return;
      const size_t index = static_cast<size_t>(at - sessions.begin());
      (*waiting)[index] = true;
      (*holders)[index].push_back(as_int(row[1]));
    };
    StepResult asked = query(
        "SELECT waiter, unnest(pg_blocking_pids(waiter)) AS holder FROM "
        "unnest(CAST(:sessions AS integer[])) AS waiter ORDER BY 1, 2",
        {{":sessions", "{" + list + "}"}}, &sink);
    return asked.ok() ? Status::ok() : step_error_status(asked);
  }
  Status cancel_statement(int64_t session) override {
    StepResult asked = query("SELECT pg_cancel_backend(CAST(:session AS integer))",
                             {{":session", session}}, nullptr);
    return asked.ok() ? Status::ok() : step_error_status(asked);
  }

  std::string_view statement_text(Stmt id) const override { return postgres_statement_sql(id); }
  StepResult query(std::string_view text, const Binds& binds, const RowSink* on_row) override {
    const SqlTemplate sql = split_named_values(text);
    std::vector<std::string> order;
    const std::string numbered = numbered_placeholders(sql, &order);
    Params params = params_for(order, binds);
    if (trace_) (*trace_)(sql_with_values(sql, binds));
    const WaitingSocket waiting(pq_->socket(conn_));
    return result_of(
        pq_->exec_params(conn_, numbered.c_str(), static_cast<int>(order.size()),
                         params.types.data(), params.values.data(), nullptr, nullptr, 0),
        on_row);
  }

  Status exec_script(const char* sql) override {
    if (trace_) (*trace_)(sql);
    const WaitingSocket waiting(pq_->socket(conn_));
    StepResult result = result_of(pq_->exec(conn_, sql), nullptr);
    if (result.ok()) return Status::ok();
    return step_error_status(result);
  }

  bool hung_up() const override { return idemlab::hung_up(pq_->socket(conn_)); }
  bool in_transaction() const override { return pq_->transaction_status(conn_) != PQTRANS_IDLE; }
  void rollback_if_open() override {
    if (in_transaction() && pq_->status(conn_) == CONNECTION_OK)
      pq_->clear(pq_->exec(conn_, "ROLLBACK"));
  }
  void set_trace(TraceSink sink) override {
    trace_ = sink ? std::make_unique<TraceSink>(std::move(sink)) : nullptr;
  }
  const std::string& location() const override { return shown_; }
  std::string isolation() const override { return isolation_; }
  std::string node() const override { return node_; }

  Status start(const ConnectionOptions& options);
  // Among several failover candidates, the one libpq connected to: its host and port, or its
  // socket's folder, as the URL names it.
  void name_node() {
    const char* host = pq_->host(conn_);
    const char* port = pq_->port(conn_);
    if (!host || !*host) return;
    node_ = host;
    if (host[0] != '/' && port && *port) node_ += fmt::format(":{}", port);
  }

 private:
  const Split& split_for(Stmt id) {
    Split& statement = split_[static_cast<size_t>(id)];
    if (statement.numbered.empty()) {
      statement.sql = split_named_values(postgres_statement_sql(id));
      statement.numbered = numbered_placeholders(statement.sql, &statement.order);
    }
    return statement;
  }
  StepResult result_of(PGresult* result, const RowSink* on_row);
  Status step_error_status(const StepResult& result) const {
    if (result.link_lost()) return step_error(*this, result);
    return Status::internal(fmt::format("{}: {}", shown_, result.error));
  }

  const LibPq* pq_;
  PGconn* conn_;
  std::string shown_;
  std::string isolation_;
  std::string node_;  // set only when the URL names several hosts
  std::array<Split, static_cast<size_t>(Stmt::kCount)> split_{};
  std::unique_ptr<TraceSink> trace_;
  CommitNotice notice_;  // what the server's notices said of the last statement
};

StepResult PostgresBackend::result_of(PGresult* result, const RowSink* on_row) {
  StepResult out;
  const ExecStatusType status = result ? pq_->result_status(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    const char* sqlstate = result ? pq_->result_error_field(result, PG_DIAG_SQLSTATE) : nullptr;
    out.error = first_line(result ? pq_->result_error_message(result) : pq_->error_message(conn_));
    if (out.error.empty()) out.error = first_line(pq_->error_message(conn_));
    // libpq's own errors carry no SQLSTATE; one that says the socket is gone is a lost link
    // even while libpq still reports the connection as made (a write that failed is told
    // only at the next read).
    const bool link_gone = !sqlstate && client_says_link_gone(out.error);
    out.code = postgres_step_code(sqlstate ? sqlstate : "",
                                  pq_->status(conn_) == CONNECTION_OK && !link_gone);
    pq_->clear(result);
    return out;
  }
  const int rows = pq_->ntuples(result), columns = pq_->nfields(result);
  for (int r = 0; r < rows && (on_row || r == 0); ++r) {
    Row row;
    for (int c = 0; c < columns; ++c) {
      if (pq_->getisnull(result, r, c)) {
        row.emplace_back();
        continue;
      }
      const std::string_view text(pq_->getvalue(result, r, c),
                                  static_cast<size_t>(pq_->getlength(result, r, c)));
      const Oid type = pq_->ftype(result, c);
      if (type == kBool)
        row.emplace_back(int64_t{text == "t"});
      else
        row.push_back(integer_or_text(
            text, type == kInt8 || type == kInt4 || type == kInt2 || type == kNumeric));
    }
    if (on_row) (*on_row)(row);
    if (r == 0) out.row = std::move(row);
  }
  const char* changed = pq_->cmd_tuples(result);
  out.changes = changed && *changed ? std::atoi(changed) : 0;
  pq_->clear(result);
  return unreplicated_commit(std::move(out), &notice_);
}

// The same single round trip as run(), without waiting for the answer.
Status PostgresBackend::send(Stmt id, const Binds& binds) {
  const Split& statement = split_for(id);
  Params params = params_for(statement.order, binds);
  if (trace_) (*trace_)(sql_with_values(statement.sql, binds));
  if (pq_->send_query_params(conn_, statement.numbered.c_str(),
                             static_cast<int>(params.values.size()), params.types.data(),
                             params.values.data(), nullptr, nullptr, 0) == 1)
    return Status::ok();
  return Status::unavailable("connection_lost", fmt::format("lost the connection to {}: {}", shown_,
                                                            first_line(pq_->error_message(conn_))));
}

std::optional<StepResult> PostgresBackend::receive(int wait_us) {
  while (pq_->consume_input(conn_) == 1 && pq_->is_busy(conn_)) {
    pollfd ready{pq_->socket(conn_), POLLIN, 0};
    if (!socket_ready(&ready, wait_us)) return std::nullopt;
  }
  // The answer is here (or the connection is gone, which result_of tells): its last result
  // is the statement's.
  PGresult* last = nullptr;
  while (PGresult* next = pq_->get_result(conn_)) {
    if (last) pq_->clear(last);
    last = next;
  }
  return result_of(last, nullptr);
}

Status PostgresBackend::start(const ConnectionOptions& options) {
  pq_->set_notice_processor(conn_, record_notice, &notice_);
  // One round trip: the settings, then the level they leave (PQexec returns the last result).
  std::string setup = fmt::format("SET lock_timeout = {}; ", options.busy_timeout_ms);
  if (options.isolation != Isolation::kDefault) {
    std::string level(isolation_name(options.isolation));
    for (char& c : level) c = c == '-' ? ' ' : c;
    setup += "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL " + level + "; ";
  }
  // The default for the transactions to come: the level of this implicit one was fixed before
  // the SET above ran.
  setup += "SHOW default_transaction_isolation";
  StepResult shown = result_of(pq_->exec(conn_, setup.c_str()), nullptr);
  if (!shown.ok() || !shown.row) return step_error_status(shown);
  isolation_ = as_text((*shown.row)[0]);
  for (char& c : isolation_) c = c == ' ' ? '-' : c;
  return Status::ok();
}

}  // namespace

bool client_says_link_gone(std::string_view message) {
  for (std::string_view phrase :
       {"server closed the connection", "no connection to the server",
        "could not send data to server", "could not receive data from server",
        "connection to server was lost"})
    if (message.find(phrase) != std::string_view::npos) return true;
  return false;
}

// 57P01 to 57P03: the server is shutting down (a failover stops the primary), crashed, or not
// yet taking connections; 25006: a read-only transaction, which every transaction on a standby
// is (what a client that reached a standby, or a primary a switchover demoted, meets).
StepCode postgres_step_code(std::string_view sqlstate, bool connection_ok) {
  if (!connection_ok || sqlstate.starts_with("08") || sqlstate.starts_with("57P"))
    return StepCode::kConnectionLost;
  if (sqlstate == "25006") return StepCode::kReadOnly;
  if (sqlstate.starts_with("23")) return StepCode::kConstraint;
  if (sqlstate == "40001") return StepCode::kSerialization;
  if (sqlstate == "40P01") return StepCode::kDeadlock;
  if (sqlstate == "55P03") return StepCode::kLockTimeout;
  return StepCode::kError;
}

Result<std::unique_ptr<Backend>> open_postgres(const Locator& locator,
                                               const ConnectionOptions& options) {
  const LibPq* pq = nullptr;
  RETURN_IF_ERROR(load_pq(&pq));
  std::vector<std::pair<std::string, std::string>> settings{
      {"dbname", locator.database},
      {"application_name", "idemlab"},
      {"connect_timeout", std::to_string(locator.connect_timeout_s)}};  // each host's try
  if (!locator.nodes.empty()) {  // failover candidates: libpq tries each in turn
    std::string hosts, ports;
    for (const auto& [host, port] : locator.nodes) {
      hosts += (hosts.empty() ? "" : ",") + host;
      ports += (ports.empty() ? "" : ",") + std::to_string(port);
    }
    settings.emplace_back("host", hosts);
    settings.emplace_back("port", ports);
  } else {
    if (!locator.host.empty()) settings.emplace_back("host", locator.host);
    if (locator.port) settings.emplace_back("port", std::to_string(locator.port));
  }
  if (!locator.user.empty()) settings.emplace_back("user", locator.user);
  if (!locator.password.empty()) settings.emplace_back("password", locator.password);
  for (const auto& parameter : locator.parameters) settings.push_back(parameter);
  std::vector<const char*> keys, values;
  for (const auto& [key, value] : settings) {
    keys.push_back(key.c_str());
    values.push_back(value.c_str());
  }
  keys.push_back(nullptr);
  values.push_back(nullptr);
  ASSIGN_OR_RETURN(PGconn * conn, connect_within(*pq, locator, keys.data(), values.data()));
  auto backend = std::make_unique<PostgresBackend>(pq, conn, locator.shown);
  RETURN_IF_ERROR(backend->start(options));
  if (locator.topology.kind == TopologyKind::kCandidates) backend->name_node();
  return std::unique_ptr<Backend>(std::move(backend));
}

}  // namespace idemlab
