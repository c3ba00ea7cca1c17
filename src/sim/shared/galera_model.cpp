// The simulator's Galera cluster: nodes of their own, certification at COMMIT, appliers.
#include "sim/shared/galera_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "core/check.h"

namespace idemlab {

namespace {

// The bind that names the row a statement writes, by the table it writes; "" for a table whose
// rows no two transactions share (the journal, the logs).
std::string_view key_bind(Stmt stmt) {
  switch (stmt) {
    case Stmt::kDebit:
      return ":from";
    case Stmt::kCredit:
      return ":to";
    case Stmt::kInsertDedup:
    case Stmt::kDeleteDedup:
      return ":key";
    case Stmt::kInsertToken:
    case Stmt::kConsumeToken:
    case Stmt::kConsumeTokenUnchecked:
      return ":token";
    case Stmt::kAcquireLock:
    case Stmt::kReleaseLock:
    case Stmt::kReleaseLockAnyOwner:
    case Stmt::kCheckFence:
      return ":name";
    default:
      return "";
  }
}

// The table a write statement writes.
std::string_view written_table(Stmt stmt) {
  const std::string_view sql = statement_sql(stmt);
  for (std::string_view keyword : {"INSERT INTO ", "UPDATE ", "DELETE FROM "}) {
    if (!sql.starts_with(keyword)) continue;
    const std::string_view rest = sql.substr(keyword.size());
    return rest.substr(0, rest.find_first_of(" ("));
  }
  return {};
}

}  // namespace

Status GaleraModel::open(const ScratchLedger& first, Connection& first_connection,
                         const GaleraSettings& settings) {
  settings_ = settings;
  nodes_.resize(static_cast<size_t>(settings.nodes));
  for (size_t i = 0; i < nodes_.size(); ++i) {
    Node& node = nodes_[i];
    if (i == 0) {
      node.ledger = &first;
    } else {
      node.own = std::make_unique<ScratchLedger>();
      RETURN_IF_ERROR(ScratchLedger::copy(first_connection, node.own.get()));
      node.ledger = node.own.get();
    }
    ASSIGN_OR_RETURN(node.applier, node.ledger->connect());
  }
  place(&first_connection, 0);
  return Status::ok();
}

int GaleraModel::node_of(const Connection& connection) const {
  const auto found = node_of_.find(&connection);
  return found == node_of_.end() ? 0 : found->second;
}

int64_t GaleraModel::applied(int node) const {
  const Node& n = nodes_[static_cast<size_t>(node)];
  return n.pending.empty() ? static_cast<int64_t>(log_.size()) : n.pending.front()->seqno - 1;
}

// A row's name in the cluster's write sets: its table and its key. A flow is named by its
// source and key where its unique key exists; without it two flows of one request are two rows.
std::string GaleraModel::write_key(const Write& write) const {
  const std::string_view table = written_table(write.stmt);
  if (table == "transfer_flow") {
    const bool inserts = statement_sql(write.stmt).starts_with("INSERT");
    if (inserts && (!settings_.flow_unique || bind_text(write.binds, ":unique_key") == "0"))
      return "";
    return fmt::format("flow {}/{}", bind_text(write.binds, ":source"),
                       bind_text(write.binds, ":biz_seq"));
  }
  const std::string_view bind = key_bind(write.stmt);
  if (bind.empty()) return "";
  return fmt::format("{} {}", table, bind_text(write.binds, bind));
}

void GaleraModel::ran(const Connection& connection, const PendingStep& step, int64_t now_ms) {
  const Stmt stmt = step.stmt;
  if (stmt == Stmt::kBeginImmediate) {
    if (step.result.ok()) open_[&connection] = Transaction{applied(node_of(connection)), {}, {}};
    return;
  }
  if (stmt == Stmt::kRollback || stmt == Stmt::kCommit) {
    const auto found = open_.find(&connection);
    if (found == open_.end()) return;
    if (stmt == Stmt::kCommit && step.result.ok()) commit(connection, found->second, now_ms);
    open_.erase(found);
    return;
  }
  if (!step.result.ok() || step.result.changes == 0 || !statement_takes_write_lock(stmt)) return;
  Write write{stmt, step.binds};
  const std::string key = write_key(write);
  if (connection.in_transaction()) {
    Transaction& transaction = open_[&connection];
    if (transaction.began_after < 0) transaction.began_after = applied(node_of(connection));
    if (!key.empty()) transaction.keys.insert(key);
    transaction.writes.push_back(std::move(write));
    return;
  }
  Transaction alone{applied(node_of(connection)), {}, {}};  // autocommit: its own write set
  if (!key.empty()) alone.keys.insert(key);
  alone.writes.push_back(std::move(write));
  commit(connection, alone, now_ms);
}

bool GaleraModel::certify(const Connection& connection) {
  const auto found = open_.find(&connection);
  if (found == open_.end()) return true;
  const Transaction& transaction = found->second;
  const int node = node_of(connection);
  for (auto it = log_.rbegin(); it != log_.rend() && it->seqno > transaction.began_after; ++it) {
    if (it->node == node) continue;
    const bool overlaps = std::any_of(transaction.keys.begin(), transaction.keys.end(),
                                      [&](const std::string& key) { return it->keys.count(key); });
    if (overlaps) {
      ++certification_failures_;
      open_.erase(found);
      return false;
    }
  }
  return true;
}

void GaleraModel::commit(const Connection& connection, Transaction& transaction, int64_t now_ms) {
  const int node = node_of(connection);
  log_.push_back(Committed{static_cast<int64_t>(log_.size()) + 1, node, now_ms,
                           std::move(transaction.keys), std::move(transaction.writes)});
  for (size_t other = 0; other < nodes_.size(); ++other)
    if (static_cast<int>(other) != node) nodes_[other].pending.push_back(&log_.back());
}

// Applies the node's pending commits that are due (all of them with `all`), in one transaction
// of its applier's, in seqno order; busy when a transaction on the node holds its write lock.
Status GaleraModel::apply(Node& node, int64_t now_ms, bool all) {
  const auto due = [&](const Committed* c) {
    return all || c->at_ms + settings_.apply_ms <= now_ms;
  };
  if (node.pending.empty() || !due(node.pending.front())) return Status::ok();
  if (!node.applier.run(Stmt::kBeginImmediate, {}).ok())
    return Status::busy("the node's write lock is taken");
  while (!node.pending.empty() && due(node.pending.front())) {
    for (const Write& write : node.pending.front()->writes) {
      const StepResult result = node.applier.run(write.stmt, write.binds);
      IDEMLAB_CHECK(result.ok(), "a certified write applies on every node");
    }
    node.pending.pop_front();
  }
  const StepResult committed = node.applier.run(Stmt::kCommit, {});
  IDEMLAB_CHECK(committed.ok(), "an applier's commit succeeds");
  return Status::ok();
}

void GaleraModel::apply_due(int64_t now_ms) {
  for (Node& node : nodes_) {
    const Status status = apply(node, now_ms, false);
    IDEMLAB_CHECK(status.is_ok() || status.code() == StatusCode::kBusy, "an applier runs");
  }
}

bool GaleraModel::apply_for_read(int node) {
  const Status status = apply(nodes_[static_cast<size_t>(node)], 0, true);
  IDEMLAB_CHECK(status.is_ok() || status.code() == StatusCode::kBusy, "an applier runs");
  return status.is_ok();
}

Status GaleraModel::apply_all() {
  for (Node& node : nodes_) RETURN_IF_ERROR(apply(node, LLONG_MAX, true));
  return Status::ok();
}

}  // namespace idemlab
