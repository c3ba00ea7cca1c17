// libmariadb: connect, run each statement as text with its values escaped by the client
// library (the protocol the non-blocking calls speak), map error numbers.
#include "db/mariadb/mariadb_backend.h"

#include <fmt/format.h>
#include <mysql.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <map>
#include <vector>

#include "core/interrupt.h"
#include "db/connection.h"
#include "db/mariadb/libmariadb.h"
#include "db/mariadb/mariadb_connect.h"
#include "db/mariadb/other_nodes.h"
#include "db/server/connect_wait.h"
#include "db/server/refused.h"
#include "db/server/server_text.h"
#include "db/server/socket_wait.h"

namespace idemlab {

namespace {

bool integer_field(enum_field_types type) {
  switch (type) {
    case MYSQL_TYPE_TINY:
    case MYSQL_TYPE_SHORT:
    case MYSQL_TYPE_LONG:
    case MYSQL_TYPE_INT24:
    case MYSQL_TYPE_LONGLONG:
    case MYSQL_TYPE_NEWDECIMAL:
    case MYSQL_TYPE_DECIMAL:
      return true;
    default:
      return false;
  }
}

class MariadbBackend final : public Backend, public NonBlocking {
 public:
  MariadbBackend(const LibMariadb* my, MYSQL* conn, const Locator& locator, bool nonblocking)
      : my_(my),
        conn_(conn),
        locator_(locator),
        other_nodes_(locator_),
        shown_(locator.shown),
        nonblocking_(nonblocking) {}
  ~MariadbBackend() override { my_->close(conn_); }
  Engine engine() const override { return Engine::kMariadb; }
  NonBlocking* nonblocking() override { return this; }

  StepResult run(Stmt id, const Binds& binds) override {
    return counted(id, execute(template_for(id), binds, nullptr));
  }
  Status send(Stmt id, const Binds& binds) override;
  std::optional<StepResult> receive(int wait_us) override;
  // On a cluster a session names its node, and is asked about there (other_nodes.h).
  int64_t session_id() const override {
    return OtherNodes::session_of(locator_.node, my_->thread_id(conn_));
  }
  Status lock_waits(const std::vector<int64_t>& sessions, std::vector<bool>* waiting,
                    std::vector<std::vector<int64_t>>* holders) override;
  Status cancel_statement(int64_t session) override;
  std::string_view statement_text(Stmt id) const override { return mariadb_statement_sql(id); }
  StepResult query(std::string_view text, const Binds& binds, const RowSink* on_row) override {
    return execute(split_named_values(text), binds, on_row);
  }
  Status exec_script(const char* sql) override;
  bool hung_up() const override { return idemlab::hung_up(my_->get_socket(conn_)); }
  bool in_transaction() const override { return conn_->server_status & SERVER_STATUS_IN_TRANS; }
  void rollback_if_open() override {
    if (in_transaction()) (void)exec_script("ROLLBACK");
  }
  void set_trace(TraceSink sink) override {
    trace_ = sink ? std::make_unique<TraceSink>(std::move(sink)) : nullptr;
  }
  const std::string& location() const override { return shown_; }
  std::string isolation() const override { return isolation_; }
  std::string node() const override { return node_; }

  Status start(const ConnectionOptions& options);

 private:
  const SqlTemplate& template_for(Stmt id) {
    SqlTemplate& sql = templates_[static_cast<size_t>(id)];
    if (sql.pieces.empty()) sql = split_named_values(mariadb_statement_sql(id));
    return sql;
  }
  // A statement that reads its own count from a RETURNING column: its changes.
  StepResult counted(Stmt id, StepResult result) const {
    if (result.ok() && mariadb_counts_in_column(id)) {
      result.changes = result.row ? static_cast<int>(as_int((*result.row)[0])) : 0;
      result.row.reset();
    }
    return result;
  }
  std::string with_escaped_values(const SqlTemplate& sql, const Binds& binds) const;
  StepResult execute(const SqlTemplate& sql, const Binds& binds, const RowSink* on_row);
  StepResult stored_result(const RowSink* on_row);
  StepResult failure() const {
    return {mariadb_step_code(my_->error_number(conn_)), 0, std::nullopt, my_->error(conn_)};
  }
  void read_rows(MYSQL_RES* result, const RowSink* on_row, StepResult* out) const;

  Status own_lock_waits(const std::vector<int64_t>& sessions, std::vector<bool>* waiting);

  const LibMariadb* my_;
  MYSQL* conn_;
  Locator locator_;
  OtherNodes other_nodes_;
  std::string shown_;
  bool nonblocking_;
  std::string isolation_;
  std::string node_;  // a Galera node's name (wsrep_node_name), "" on a lone server
  std::array<SqlTemplate, static_cast<size_t>(Stmt::kCount)> templates_{};
  std::unique_ptr<TraceSink> trace_;
  // The statement send() started: its text (the client library reads it until it is sent),
  // what the library waits for (0: the server has answered), its error and its name.
  std::string sent_text_;
  int sent_wait_ = 0;
  int sent_error_ = 0;
  Stmt sent_ = Stmt::kCount;
};

std::string MariadbBackend::with_escaped_values(const SqlTemplate& sql, const Binds& binds) const {
  std::string text = sql.pieces[0];
  for (size_t i = 0; i < sql.names.size(); ++i) {
    const Value& value = sql.value(i, binds);
    if (const auto* number = std::get_if<int64_t>(&value)) {
      text += std::to_string(*number);
    } else if (const auto* string = std::get_if<std::string>(&value)) {
      std::string escaped(string->size() * 2 + 1, '\0');
      escaped.resize(my_->escape(conn_, escaped.data(), string->data(), string->size()));
      text += "'" + escaped + "'";
    } else {
      text += "NULL";
    }
    text += sql.pieces[i + 1];
  }
  return text;
}

void MariadbBackend::read_rows(MYSQL_RES* result, const RowSink* on_row, StepResult* out) const {
  const unsigned columns = my_->num_fields(result);
  const MYSQL_FIELD* fields = my_->fetch_fields(result);
  while (MYSQL_ROW fetched = my_->fetch_row(result)) {
    const unsigned long* lengths = my_->fetch_lengths(result);
    Row row;
    for (unsigned c = 0; c < columns; ++c)
      row.push_back(fetched[c] ? integer_or_text(std::string_view(fetched[c], lengths[c]),
                                                 integer_field(fields[c].type))
                               : Value());
    if (on_row) (*on_row)(row);
    if (!out->row) out->row = std::move(row);
  }
}

StepResult MariadbBackend::execute(const SqlTemplate& sql, const Binds& binds,
                                   const RowSink* on_row) {
  if (trace_) (*trace_)(sql_with_values(sql, binds));
  const std::string text = with_escaped_values(sql, binds);
  const WaitingSocket waiting(my_->get_socket(conn_));  // a signal to stop ends the wait at once
  if (my_->real_query(conn_, text.data(), text.size()) != 0) return failure();
  return stored_result(on_row);
}

// The answer to the statement just run: its rows, or the count of rows it changed.
StepResult MariadbBackend::stored_result(const RowSink* on_row) {
  StepResult out;
  MYSQL_RES* result = my_->store_result(conn_);
  if (!result) {
    if (my_->field_count(conn_) != 0) return failure();
    out.changes = static_cast<int>(my_->affected_rows(conn_));
    return out;
  }
  read_rows(result, on_row, &out);
  out.changes = static_cast<int>(my_->affected_rows(conn_));
  my_->free_result(result);
  return out;
}

// mysql_real_query_start and _cont: the client library runs the query on a stack of its own
// and returns whenever it would wait on the socket (MYSQL_OPT_NONBLOCK, set at connect).
Status MariadbBackend::send(Stmt id, const Binds& binds) {
  if (!nonblocking_)
    return Status::internal(
        fmt::format("{}: opened without ConnectionOptions::nonblocking", shown_));
  const SqlTemplate& sql = template_for(id);
  if (trace_) (*trace_)(sql_with_values(sql, binds));
  sent_text_ = with_escaped_values(sql, binds);
  sent_ = id;
  sent_error_ = 0;
  sent_wait_ = my_->real_query_start(&sent_error_, conn_, sent_text_.data(), sent_text_.size());
  return Status::ok();
}

std::optional<StepResult> MariadbBackend::receive(int wait_us) {
  while (sent_wait_ != 0) {
    short events = 0;
    if (sent_wait_ & MYSQL_WAIT_READ) events |= POLLIN;
    if (sent_wait_ & MYSQL_WAIT_WRITE) events |= POLLOUT;
    if (sent_wait_ & MYSQL_WAIT_EXCEPT) events |= POLLPRI;
    pollfd ready{my_->get_socket(conn_), events, 0};
    if (!socket_ready(&ready, wait_us)) return std::nullopt;
    int happened = 0;
    if (ready.revents & (POLLIN | POLLHUP | POLLERR)) happened |= MYSQL_WAIT_READ;
    if (ready.revents & POLLOUT) happened |= MYSQL_WAIT_WRITE;
    if (ready.revents & POLLPRI) happened |= MYSQL_WAIT_EXCEPT;
    sent_wait_ = my_->real_query_cont(&sent_error_, conn_, happened);
  }
  if (sent_error_ != 0) return failure();
  // The server has answered: the rows, if any, follow at once.
  return counted(sent_, stored_result(nullptr));
}

// INNODB_TRX and INNODB_LOCK_WAITS are copies InnoDB refreshes only after 100 ms without a
// read, so a caller who asks every millisecond reads the same stale copy for ever (measured:
// a wait that had ended 20 s before). SHOW ENGINE INNODB STATUS is built when asked.
Status MariadbBackend::own_lock_waits(const std::vector<int64_t>& sessions,
                                      std::vector<bool>* waiting) {
  std::string status;
  const RowSink keep = [&](const Row& row) { status = as_text(row.back()); };
  StepResult asked = execute(split_named_values("SHOW ENGINE INNODB STATUS"), {}, &keep);
  if (asked.link_lost()) return step_error(*this, asked);
  if (!asked.ok()) return Status::internal(fmt::format("{}: {}", shown_, asked.error));
  waiting->clear();
  for (int64_t session : sessions)
    waiting->push_back(innodb_status_shows_lock_wait(status, OtherNodes::thread_of(session)));
  return Status::ok();
}

// Each node is asked, in one question, about the sessions that live on it.
Status MariadbBackend::lock_waits(const std::vector<int64_t>& sessions, std::vector<bool>* waiting,
                                  std::vector<std::vector<int64_t>>* holders) {
  waiting->assign(sessions.size(), false);
  holders->assign(sessions.size(), {});
  std::map<int, std::vector<size_t>> by_node;
  for (size_t i = 0; i < sessions.size(); ++i)
    by_node[OtherNodes::node_of(sessions[i])].push_back(i);
  for (const auto& [node, indexes] : by_node) {
    std::vector<int64_t> asked;
    for (size_t i : indexes) asked.push_back(sessions[i]);
    std::vector<bool> found;
    RETURN_IF_ERROR(node == locator_.node ? own_lock_waits(asked, &found)
                                          : other_nodes_.lock_waits(node, asked, &found));
    for (size_t k = 0; k < indexes.size(); ++k) (*waiting)[indexes[k]] = found[k];
  }
  return Status::ok();
}

Status MariadbBackend::cancel_statement(int64_t session) {
  if (OtherNodes::node_of(session) != locator_.node) return other_nodes_.cancel_statement(session);
  return exec_script(fmt::format("KILL QUERY {}", OtherNodes::thread_of(session)).c_str());
}

Status MariadbBackend::exec_script(const char* sql) {
  if (trace_) (*trace_)(sql);
  const WaitingSocket waiting(my_->get_socket(conn_));
  int status = my_->real_query(conn_, sql, std::strlen(sql));
  while (status == 0) {
    if (MYSQL_RES* result = my_->store_result(conn_)) my_->free_result(result);
    status = my_->next_result(conn_);  // 0: another result; -1: no more; >0: an error
  }
  if (status < 0) return Status::ok();
  const StepResult failed = failure();
  if (failed.link_lost()) return step_error(*this, failed);
  return Status::internal(fmt::format("{}: {}", shown_, failed.error));
}

// The busy timeout bounds both of a statement's lock waits: a row's (innodb_lock_wait_timeout)
// and a table's or the server's (lock_wait_timeout: metadata locks, and the global read lock a
// Galera node whose applier is held keeps, where a write would otherwise wait until the
// client's read timeout and be taken for a lost link). Either ends in 1205: lock_wait_timeout.
Status MariadbBackend::start(const ConnectionOptions& options) {
  const int wait_s = std::max(1, (options.busy_timeout_ms + 999) / 1000);
  std::string setup = fmt::format(
      "SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES,PIPES_AS_CONCAT'), "
      "SESSION innodb_lock_wait_timeout = {0}, SESSION lock_wait_timeout = {0}",
      wait_s);
  if (options.isolation != Isolation::kDefault) {
    std::string level(isolation_name(options.isolation));
    for (char& c : level) c = c == '-' ? ' ' : static_cast<char>(std::toupper(c));
    setup += "; SET SESSION TRANSACTION ISOLATION LEVEL " + level;
  }
  RETURN_IF_ERROR(exec_script(setup.c_str()));
  StepResult shown = query("SELECT @@tx_isolation", {}, nullptr);
  if (shown.link_lost()) return step_error(*this, shown);  // a node not serving yet
  if (!shown.ok() || !shown.row) return Status::internal(shown.error);
  isolation_ = as_text((*shown.row)[0]);
  for (char& c : isolation_) c = static_cast<char>(std::tolower(c));
  // A Galera node says which it is; a server without wsrep answers no row (or has no such
  // variable): no node to name.
  StepResult node = query("SELECT @@wsrep_node_name FROM DUAL WHERE @@wsrep_on", {}, nullptr);
  if (node.ok() && node.row) node_ = as_text((*node.row)[0]);
  return Status::ok();
}

}  // namespace

Result<std::unique_ptr<Backend>> open_mariadb(const Locator& locator,
                                              const ConnectionOptions& options) {
  const LibMariadb* my = nullptr;
  RETURN_IF_ERROR(load_my(&my));
  MYSQL* conn = my->init(nullptr);
  if (!conn) return Status::internal("mysql_init: out of memory");
  my->options(conn, MYSQL_READ_DEFAULT_GROUP, "client");
  set_timeouts(*my, conn, locator, options);
  my->options(conn, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  my->options(conn, MYSQL_OPT_NONBLOCK, nullptr);  // the connect below; statements may block
  std::string socket;
  for (const auto& [key, value] : locator.parameters)
    if (key == "socket") socket = value;
  MYSQL* connected = nullptr;
  if (Status waited =
          connect_within(*my, conn, locator, socket.empty() ? nullptr : socket.c_str(), &connected);
      !waited.is_ok()) {
    my->close(conn);
    return waited;
  }
  if (!connected) {
    const std::string why = my->error(conn);
    const unsigned error_number = my->error_number(conn);
    my->close(conn);
    if (const std::optional<std::string> limit = mariadb_refusal(error_number, why))
      return server_busy(locator.shown, *limit);
    return Status::ledger(fmt::format("cannot connect to {}: {}", locator.shown, why));
  }
  auto backend = std::make_unique<MariadbBackend>(my, conn, locator, options.nonblocking);
  RETURN_IF_ERROR(backend->start(options));
  bool sync_wait_given = false;
  for (const auto& [key, value] : locator.parameters)  // whole numbers: the locator checked
    if (key == "wsrep_sync_wait" || key == "wsrep_retry_autocommit") {
      RETURN_IF_ERROR(backend->exec_script(fmt::format("SET SESSION {} = {}", key, value).c_str()));
      sync_wait_given |= key == "wsrep_sync_wait";
    }
  if (options.causal_reads && !sync_wait_given && !backend->node().empty())
    RETURN_IF_ERROR(backend->exec_script("SET SESSION wsrep_sync_wait = 1"));
  return std::unique_ptr<Backend>(std::move(backend));
}

}  // namespace idemlab
