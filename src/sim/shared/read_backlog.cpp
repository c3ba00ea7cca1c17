// A lagging replica's due writes, by the rows a read asks for: applied when read, dropped when
// no read can ask.
#include "sim/shared/read_backlog.h"

#include <algorithm>
#include <array>
#include <cstring>

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

// Room for the writes a request's rows usually take (an insert, a finish, a retry's claim).
constexpr size_t kWritesAtOnce = 4;

const Value* find(const Binds& binds, const char* name) {
  for (const Bind& bind : binds)
    if (std::strcmp(bind.name, name) == 0) return &bind.value;
  return nullptr;
}

bool inserts(Stmt stmt) {
  return stmt == Stmt::kInsertFlow || stmt == Stmt::kInsertFlowIfAbsent ||
         stmt == Stmt::kUpsertFlow;
}

// What a read or a write of flow rows names them by: "f" source '\n' biz_seq; "" for none.
std::string flows_named(const Binds& binds) {
  const Value* source = find(binds, ":source");
  const Value* biz_seq = find(binds, ":biz_seq");
  if (!source || !biz_seq || is_null(*source) || is_null(*biz_seq)) return "";
  return "f" + as_text(*source) + '\n' + as_text(*biz_seq);
}

// What a read or a write of a dedup record names it by: "d" key; "" for none.
std::string record_named(const Binds& binds) {
  const Value* key = find(binds, ":key");
  return key && !is_null(*key) ? "d" + as_text(*key) : "";
}

// Whether dedup key `key`, written by request (source, biz_seq), is one only requests numbered
// `biz_seq` can make: source:biz_seq, or biz_seq alone (the pitfall key-without-source).
bool traced_to_requests(std::string_view key, std::string_view source, std::string_view biz_seq) {
  if (biz_seq.find(':') != std::string_view::npos) return false;
  if (key == biz_seq) return true;
  return key.size() == source.size() + 1 + biz_seq.size() && key.starts_with(source) &&
         key[source.size()] == ':' && key.ends_with(biz_seq);
}

}  // namespace

ReadBacklog::Rows* ReadBacklog::place(const LoggedWrite& write) {
  const std::string_view table = written_table(write.stmt);
  if (table == "dedup") return place_dedup(write);
  if (table != "transfer_flow") return nullptr;
  if (const Value* id = find(write.binds, ":flow_id")) {
    const auto found = by_flow_.find(as_int(*id));
    return found == by_flow_.end() ? nullptr : found->second;
  }
  std::string name = flows_named(write.binds);
  if (name.empty()) return nullptr;
  const auto [it, fresh] = by_rows_.try_emplace(std::move(name));
  if (fresh) {
    it->second.source = as_text(*find(write.binds, ":source"));
    it->second.biz_seq = as_text(*find(write.binds, ":biz_seq"));
    it->second.writes.reserve(kWritesAtOnce);
  }
  return &it->second;
}

// A record is read by its key alone, so it is kept only when every request that could read it
// is one numbered as the request that wrote it (traced_to_requests). A delete names only the
// key: it finds the record's writes kept, or applies at once (the record was never kept).
ReadBacklog::Rows* ReadBacklog::place_dedup(const LoggedWrite& write) {
  std::string name = record_named(write.binds);
  if (name.empty()) return nullptr;
  if (const auto found = by_rows_.find(name); found != by_rows_.end()) return &found->second;
  const Value* source = find(write.binds, ":source");
  const Value* biz_seq = find(write.binds, ":biz_seq");
  if (write.stmt != Stmt::kInsertDedup || !source || !biz_seq || is_null(*source) ||
      is_null(*biz_seq) ||
      !traced_to_requests(std::string_view(name).substr(1), as_text(*source), as_text(*biz_seq)))
    return nullptr;
  Rows& rows = by_rows_[std::move(name)];
  rows = Rows{as_text(*source), as_text(*biz_seq), true, {}, {}};
  rows.writes.reserve(kWritesAtOnce);
  return &rows;
}

bool ReadBacklog::keep(LoggedWrite& write) {
  if (unread_ && by_rows_.size() >= next_sweep_) forget_unread();
  Rows* rows = place(write);
  if (!rows) return false;
  if (inserts(write.stmt) && write.returned_id != 0 &&
      by_flow_.try_emplace(write.returned_id, rows).second)
    rows->flows.push_back(write.returned_id);
  rows->writes.push_back(std::move(write));
  return true;
}

std::vector<LoggedWrite>* ReadBacklog::kept_for(Stmt stmt, const Binds& binds) {
  const std::string_view table = table_after(statement_sql(stmt), "FROM ");
  const std::string name = table == "transfer_flow" ? flows_named(binds)
                           : table == "dedup"       ? record_named(binds)
                                                    : "";
  const auto found = by_rows_.find(name);
  if (found == by_rows_.end() || found->second.writes.empty()) return nullptr;
  return &found->second.writes;
}

// An insert runs naming the id its RETURNING gave on the primary, with its own ON CONFLICT:
// an upsert that found its row there finds it here too.
StepResult ReadBacklog::apply(Connection& replica, LoggedWrite& write) {
  if (!inserts(write.stmt) || write.returned_id == 0) return replica.apply(write.stmt, write.binds);
  static const std::array<std::string, 3> kWithId{
      with_id(Stmt::kInsertFlow), with_id(Stmt::kInsertFlowIfAbsent), with_id(Stmt::kUpsertFlow)};
  const size_t which = write.stmt == Stmt::kInsertFlow           ? 0
                       : write.stmt == Stmt::kInsertFlowIfAbsent ? 1
                                                                 : 2;
  write.binds.push_back({":flow_id", write.returned_id});
  return replica.query(kWithId[which], write.binds);
}

void ReadBacklog::forget_unread() {
  for (auto it = by_rows_.begin(); it != by_rows_.end();) {
    const Rows& rows = it->second;
    if (!unread_(rows.source, rows.biz_seq, rows.any_source)) {
      ++it;
      continue;
    }
    for (const int64_t flow : rows.flows) by_flow_.erase(flow);
    it = by_rows_.erase(it);
  }
  next_sweep_ = std::max(fewest_swept_, 2 * by_rows_.size());
}

}  // namespace idemlab
