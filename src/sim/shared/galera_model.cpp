// The simulator's Galera cluster: nodes of their own, certification at COMMIT, appliers.
#include "sim/shared/galera_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "core/check.h"
#include "db/statement_tables.h"

namespace idemlab {

namespace {

// A write that inserts a row and never updates one (no DO UPDATE), so the engine's last
// inserted row id is the row's.
bool inserts_new_row(Stmt stmt) {
  return stmt == Stmt::kInsertFlow || stmt == Stmt::kInsertFlowIfAbsent;
}

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

}  // namespace

StepResult certification_failure() {
  return StepResult{StepCode::kDeadlock, 0, std::nullopt,
                    "Deadlock found when trying to get lock; try restarting transaction "
                    "(certification failed)"};
}

std::string applied_text(int node, int64_t before, int64_t after) {
  return after == before + 1
             ? fmt::format("node {} applies the cluster's commit {}", node + 1, after)
             : fmt::format("node {} applies the cluster's commits {} to {}", node + 1, before + 1,
                           after);
}

Status GaleraModel::open(const ScratchLedger& first, Connection& first_connection,
                         const GaleraSettings& settings, WriteSetLog* log) {
  settings_ = settings;
  log->follow(this);
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
  return n.pending.empty() ? last_seqno_ : n.pending.front()->seqno - 1;
}

// A row's name in the cluster's write sets: its table and its key. A flow is named by its
// source and key where its unique key exists; without it two flows of one request are two rows.
std::string GaleraModel::write_key(Stmt stmt, const Binds& binds) const {
  const std::string_view table = written_table(stmt);
  if (table == "transfer_flow") {
    const bool inserts = statement_sql(stmt).starts_with("INSERT");
    if (inserts && (!settings_.flow_unique || bind_text(binds, ":unique_key") == "0")) return "";
    return fmt::format("flow {}/{}", bind_text(binds, ":source"), bind_text(binds, ":biz_seq"));
  }
  const std::string_view bind = key_bind(stmt);
  if (bind.empty()) return "";
  return fmt::format("{} {}", table, bind_text(binds, bind));
}

void GaleraModel::began(const Connection& connection) {
  open_[&connection] = Open{applied(node_of(connection)), {}};
}

// A write in a transaction names its row for certification; a transaction whose BEGIN the log
// did not see began with its first write.
void GaleraModel::wrote(const Connection& connection, const LoggedWrite& write) {
  if (!connection.in_transaction()) return;  // an autocommit write: committed() names it
  Open& open = open_.try_emplace(&connection, Open{applied(node_of(connection)), {}}).first->second;
  if (std::string key = write_key(write.stmt, write.binds); !key.empty())
    open.keys.insert(std::move(key));
}

// A certified commit (or an autocommit write, its own write set) gets the cluster's next seqno;
// every other node applies it later. Its flow rows are named here, where it committed.
void GaleraModel::committed(WriteSet&& set) {
  const int node = node_of(*set.connection);
  Committed commit{++last_seqno_, node, set.at_ms, {}, {}};
  if (const auto found = open_.find(set.connection); found != open_.end()) {
    commit.keys = std::move(found->second.keys);
    open_.erase(found);
  } else {
    for (const LoggedWrite& write : set.writes)
      if (std::string key = write_key(write.stmt, write.binds); !key.empty())
        commit.keys.insert(std::move(key));
  }
  for (LoggedWrite& logged : set.writes) {
    const FlowName flow = name_flow(node, logged);  // before its values move on
    commit.writes.push_back(Write{logged.stmt, std::move(logged.binds), flow});
  }
  log_.push_back(std::move(commit));
  for (size_t other = 0; other < nodes_.size(); ++other)
    if (static_cast<int>(other) != node) nodes_[other].pending.push_back(&log_.back());
}

bool GaleraModel::refuses_autocommit(const Connection& connection, const PendingStep& step) {
  if (settings_.retry_autocommit || connection.in_transaction() ||
      !statement_sql(step.stmt).starts_with("INSERT"))
    return false;
  const std::string key = write_key(step.stmt, step.binds);
  if (key.empty()) return false;
  const Node& node = nodes_[static_cast<size_t>(node_of(connection))];
  const bool unapplied =
      std::any_of(node.pending.begin(), node.pending.end(),
                  [&](const Committed* other) { return other->keys.count(key); });
  if (unapplied) ++certification_failures_;
  return unapplied;
}

bool GaleraModel::certify(const Connection& connection) {
  const auto found = open_.find(&connection);
  if (found == open_.end()) return true;
  const Open& open = found->second;
  const int node = node_of(connection);
  for (auto it = log_.rbegin(); it != log_.rend() && it->seqno > open.began_after; ++it) {
    if (it->node == node) continue;
    const bool overlaps = std::any_of(open.keys.begin(), open.keys.end(),
                                      [&](const std::string& key) { return it->keys.count(key); });
    if (overlaps) {
      ++certification_failures_;
      open_.erase(found);
      return false;
    }
  }
  return true;
}

GaleraModel::FlowName GaleraModel::name_flow(int node, const LoggedWrite& write) {
  if (written_table(write.stmt) != "transfer_flow") return {-1, 0};
  Node& here = nodes_[static_cast<size_t>(node)];
  const int64_t id = write.returned_id != 0 ? write.returned_id : bind_int(write.binds, ":flow_id");
  if (id == 0) return {-1, 0};
  // An upsert or an update names a row the node may have from another; an insert, a new row
  // (its id may be one a rolled-back insert took before: the name is made again).
  const auto named = here.flow_names.find(id);
  if (named != here.flow_names.end() && !inserts_new_row(write.stmt)) return named->second;
  const FlowName name{node, id};
  name_here(here, name, id);
  return name;
}

void GaleraModel::apply_write(Node& node, const Write& write) {
  const bool names_flow = write.flow.first >= 0;
  if (!names_flow || inserts_new_row(write.stmt)) {
    // No id to translate. A flow's insert learns the id this node gives the row from the engine
    // (apply: SQLite would build RETURNING's one row in a temporary table of its own).
    const StepResult result = node.applier.apply(write.stmt, write.binds);
    IDEMLAB_CHECK(result.ok(), "a certified write applies on every node");
    if (names_flow && result.changes > 0)
      name_here(node, write.flow, node.applier.last_insert_id());
    return;
  }
  Binds binds = write.binds;
  for (Bind& bind : binds)
    if (std::string_view(bind.name) == ":flow_id") bind.value = node.flow_ids.at(write.flow);
  const StepResult result = node.applier.run(write.stmt, binds);
  IDEMLAB_CHECK(result.ok(), "a certified write applies on every node");
  if (result.row && !result.row->empty()) name_here(node, write.flow, as_int(result.row->at(0)));
}

// The flow `name` has id `id` on `node` (over a name a rolled-back insert left on this id).
void GaleraModel::name_here(Node& node, const FlowName& name, int64_t id) {
  node.flow_ids[name] = id;
  node.flow_names[id] = name;
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
  // Node 1's ledger is the one the run is judged on: it applies every write. The others apply
  // what an attempt can read there: no statement an attempt runs reads the journal.
  const bool judged = &node == &nodes_.front();
  while (!node.pending.empty() && due(node.pending.front())) {
    for (const Write& write : node.pending.front()->writes)
      if (judged || written_table(write.stmt) != "journal") apply_write(node, write);
    node.pending.pop_front();
  }
  const StepResult committed = node.applier.run(Stmt::kCommit, {});
  IDEMLAB_CHECK(committed.ok(), "an applier's commit succeeds");
  return Status::ok();
}

void GaleraModel::apply_due(int64_t now_ms) {
  for (size_t node = 0; node < nodes_.size(); ++node) apply_due_on(static_cast<int>(node), now_ms);
}

void GaleraModel::apply_due_on(int node, int64_t now_ms) {
  const Status status = apply(nodes_[static_cast<size_t>(node)], now_ms, false);
  IDEMLAB_CHECK(status.is_ok() || status.code() == StatusCode::kBusy, "an applier runs");
  forget();
}

// Drops the commits every node has applied and no open transaction can meet at its
// certification: the log is as long as the appliers' lag, not the run.
void GaleraModel::forget() {
  int64_t needed_after = last_seqno_;
  for (size_t node = 0; node < nodes_.size(); ++node)
    needed_after = std::min(needed_after, applied(static_cast<int>(node)));
  for (const auto& [connection, open] : open_)
    needed_after = std::min(needed_after, open.began_after);
  while (!log_.empty() && log_.front().seqno <= needed_after) log_.pop_front();
}

bool GaleraModel::waits_for_applier(const Connection& connection, Stmt stmt) const {
  if (connection.in_transaction()) return false;
  const bool ends = stmt == Stmt::kCommit || stmt == Stmt::kRollback;
  const bool reads = stmt == Stmt::kBeginImmediate || !(statement_takes_write_lock(stmt) || ends);
  return reads ? settings_.causal_reads : !ends && settings_.retry_autocommit;
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
