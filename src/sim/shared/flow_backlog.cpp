// A lagging replica's due flow writes, by request: applied when read, dropped when settled.
#include "sim/shared/flow_backlog.h"

#include <algorithm>
#include <array>

#include "core/check.h"
#include "db/statement_tables.h"

namespace idemlab {

namespace {

// `stmt` (an insert into the flows) naming the row's id, :flow_id, as the primary gave it.
std::string with_id(Stmt stmt) {
  std::string sql(statement_sql(stmt));
  const auto insert_after = [&sql](std::string_view at, std::string_view text) {
    const size_t found = sql.find(at);
    IDEMLAB_CHECK(found != std::string::npos, "a flow insert names its columns and values");
    sql.insert(found + at.size(), text);
  };
  insert_after("transfer_flow (", "id, ");
  insert_after("VALUES (", ":flow_id, ");
  if (sql.ends_with(" RETURNING id"))
    sql.resize(sql.size() - std::string_view(" RETURNING id").size());
  return sql;
}

const Value* find(const Binds& binds, std::string_view name) {
  for (const Bind& bind : binds)
    if (name == bind.name) return &bind.value;
  return nullptr;
}

bool inserts(Stmt stmt) {
  return stmt == Stmt::kInsertFlow || stmt == Stmt::kInsertFlowIfAbsent ||
         stmt == Stmt::kUpsertFlow;
}

// The request a flow statement names by its key, or "" when it names none.
std::string request_named(const Binds& binds) {
  const Value* source = find(binds, ":source");
  const Value* biz_seq = find(binds, ":biz_seq");
  if (!source || !biz_seq || is_null(*source) || is_null(*biz_seq)) return "";
  return as_text(*source) + '\n' + as_text(*biz_seq);
}

}  // namespace

FlowBacklog::Request* FlowBacklog::place(const LoggedWrite& write) {
  if (const Value* id = find(write.binds, ":flow_id")) {
    const auto found = by_flow_.find(as_int(*id));
    return found == by_flow_.end() ? nullptr : found->second;
  }
  std::string name = request_named(write.binds);
  if (name.empty()) return nullptr;
  const auto [it, fresh] = by_request_.try_emplace(std::move(name));
  if (fresh) {
    it->second.source = as_text(*find(write.binds, ":source"));
    it->second.biz_seq = as_text(*find(write.binds, ":biz_seq"));
  }
  return &it->second;
}

bool FlowBacklog::keep(LoggedWrite& write) {
  if (written_table(write.stmt) != "transfer_flow") return false;
  if (unread_ && by_request_.size() >= next_sweep_) forget_unread();
  Request* request = place(write);
  if (!request) return false;
  if (inserts(write.stmt) && write.returned_id != 0 &&
      by_flow_.try_emplace(write.returned_id, request).second)
    request->flows.push_back(write.returned_id);
  request->writes.push_back(std::move(write));
  return true;
}

std::vector<LoggedWrite>* FlowBacklog::kept_for(Stmt stmt, const Binds& binds) {
  if (table_after(statement_sql(stmt), "FROM ") != "transfer_flow") return nullptr;
  const auto found = by_request_.find(request_named(binds));
  if (found == by_request_.end() || found->second.writes.empty()) return nullptr;
  return &found->second.writes;
}

// An insert runs naming the id its RETURNING gave on the primary, with its own ON CONFLICT:
// an upsert that found its row there finds it here too.
StepResult FlowBacklog::apply(Connection& replica, LoggedWrite& write) {
  if (!inserts(write.stmt) || write.returned_id == 0) return replica.apply(write.stmt, write.binds);
  static const std::array<std::string, 3> kWithId{
      with_id(Stmt::kInsertFlow), with_id(Stmt::kInsertFlowIfAbsent), with_id(Stmt::kUpsertFlow)};
  const size_t which = write.stmt == Stmt::kInsertFlow           ? 0
                       : write.stmt == Stmt::kInsertFlowIfAbsent ? 1
                                                                 : 2;
  write.binds.push_back({":flow_id", write.returned_id});
  return replica.query(kWithId[which], write.binds);
}

void FlowBacklog::forget_unread() {
  for (auto it = by_request_.begin(); it != by_request_.end();) {
    if (!unread_(it->second.source, it->second.biz_seq)) {
      ++it;
      continue;
    }
    for (const int64_t flow : it->second.flows) by_flow_.erase(flow);
    it = by_request_.erase(it);
  }
  next_sweep_ = std::max(fewest_swept_, 2 * by_request_.size());
}

}  // namespace idemlab
