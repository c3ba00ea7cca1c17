// Queries behind `accounts`, `history` and `token issue`.
#include "ledger/ledger.h"

#include <fmt/format.h>

#include "core/limits.h"

namespace idemlab {

Status list_accounts(Connection& connection, std::vector<AccountBalance>* out) {
  out->clear();
  StepResult result = connection.query(
      "SELECT name, balance_minor, opening_balance_minor FROM account ORDER BY name", {},
      [&](const Row& row) {
        out->push_back({as_text(row[0]), as_int(row[1]), as_int(row[2])});
      });
  if (!result.ok()) return step_error(connection, result);
  return Status::ok();
}

Status read_account(Connection& connection, const std::string& name, AccountView* out) {
  *out = AccountView{};
  StepResult result = connection.query(
      "SELECT a.balance_minor, l.limit_minor FROM account a "
      "LEFT JOIN account_limit l ON l.account = a.name WHERE a.name = :account",
      {{":account", name}}, [&](const Row& row) {
        out->found = true;
        out->balance_minor = as_int(row[0]);
        if (!is_null(row[1])) out->limit_minor = as_int(row[1]);
      });
  return result.ok() ? Status::ok() : step_error(connection, result);
}

namespace {

constexpr const char* kAttemptsMatching =
    "FROM attempt WHERE (:source IS NULL OR source = :source) AND "
    "(:biz_seq IS NULL OR biz_seq = :biz_seq)";

Binds filter_binds(const AttemptFilter& filter) {
  Binds binds;
  if (filter.source) binds.push_back({":source", *filter.source});
  if (filter.biz_seq) binds.push_back({":biz_seq", *filter.biz_seq});
  return binds;
}

}  // namespace

Status count_attempts(Connection& connection, const AttemptFilter& filter, int64_t* out) {
  StepResult result =
      connection.query(fmt::format("SELECT COUNT(*) {}", kAttemptsMatching), filter_binds(filter),
                       [&](const Row& row) { *out = as_int(row[0]); });
  if (!result.ok()) return step_error(connection, result);
  return Status::ok();
}

Status list_attempts(Connection& connection, const AttemptFilter& filter,
                     std::vector<AttemptRecord>* out) {
  out->clear();
  Binds binds = filter_binds(filter);
  binds.push_back({":limit", filter.limit});
  StepResult result = connection.query(
      fmt::format(
          "SELECT * FROM (SELECT id, source, biz_seq, strategy, pitfall, outcome, reason, "
          "replayed, fault, at_ms, isolation, node {} ORDER BY id DESC LIMIT :limit) AS newest "
          "ORDER BY id",
          kAttemptsMatching),
      binds, [&](const Row& row) {
        out->push_back({as_int(row[0]), as_text(row[1]), as_text(row[2]), as_text(row[3]),
                        as_text(row[4]), as_text(row[5]), as_text(row[6]), as_int(row[7]) != 0,
                        as_text(row[8]), as_int(row[9]), as_text(row[10]), as_text(row[11])});
      });
  if (!result.ok()) return step_error(connection, result);
  return Status::ok();
}

Status sources_with_biz_seq(Connection& connection, const std::string& biz_seq,
                            std::vector<std::string>* out) {
  out->clear();
  StepResult result = connection.query(
      "SELECT source FROM attempt WHERE biz_seq = :biz_seq UNION "
      "SELECT source FROM transfer_flow WHERE biz_seq = :biz_seq ORDER BY 1",
      {{":biz_seq", biz_seq}}, [&](const Row& row) { out->push_back(as_text(row[0])); });
  if (!result.ok()) return step_error(connection, result);
  return Status::ok();
}

Status list_guard_places(Connection& connection, std::vector<GuardPlace>* out) {
  out->clear();
  StepResult result = connection.query(
      "SELECT COALESCE(guard_store, ''), strategy, COUNT(DISTINCT source || ':' || biz_seq) "
      "FROM attempt GROUP BY COALESCE(guard_store, ''), strategy "
      "ORDER BY COALESCE(guard_store, ''), strategy",
      {}, [&](const Row& row) {
        out->push_back({as_text(row[0]), as_text(row[1]), as_int(row[2])});
      });
  if (!result.ok()) return step_error(connection, result);
  return Status::ok();
}

Status find_key_holder(Connection& connection, const std::string& source,
                       const std::string& biz_seq, int64_t now_ms, KeyHolder* out) {
  KeyHolder holder;
  StepResult found = connection.query(
      "SELECT * FROM (SELECT 'lock owner ' || locked_by AS holder, locked_at_ms, "
      "lock_until_ms, 1 AS priority FROM \"lock\" "
      "WHERE name = 'transfer:' || :source || ':' || :biz_seq AND lock_until_ms > :now "
      "UNION ALL SELECT 'an unfinished ' || strategy || ' attempt (flow status ' || "
      "CAST(status AS CHAR(1)) || ')', created_at_ms, -1, 2 FROM transfer_flow "
      "WHERE source = :source AND biz_seq = :biz_seq AND status < 2 UNION ALL SELECT "
      "'a dedup record with no answer', created_at_ms, -1, 3 FROM dedup "
      "WHERE source = :source AND biz_seq = :biz_seq) AS holders ORDER BY priority LIMIT 1",
      {{":source", source}, {":biz_seq", biz_seq}, {":now", now_ms}}, [&](const Row& row) {
        holder.by = as_text(row[0]);
        holder.since_ms = as_int(row[1]);
        holder.until_ms = as_int(row[2]);
        holder.retry_after_ms =
            holder.until_ms < 0 ? 0 : std::max<int64_t>(0, holder.until_ms - now_ms);
      });
  if (!found.ok()) return step_error(connection, found);
  *out = std::move(holder);
  return Status::ok();
}

Status issue_token(StatementRunner& store, const Clock& clock, uint64_t entropy_high,
                   uint64_t entropy_low, int64_t ttl_ms, IssuedToken* out) {
  IssuedToken token{fmt::format("{:016x}{:016x}", entropy_high, entropy_low),
                    add_ms(clock.now_ms(), ttl_ms)};
  StepResult result = store.run(
      Stmt::kInsertToken,
      {{":token", token.token}, {":now", clock.now_ms()}, {":expires", token.expires_at_ms}});
  if (result.code == StepCode::kBusy) return Status::busy("database is locked: " + result.error);
  if (!result.ok()) return step_error(store, result);
  *out = std::move(token);
  return Status::ok();
}

std::string_view request_state_name(RequestState state) {
  switch (state) {
    case RequestState::kNotFound:
      return "not_found";
    case RequestState::kProcessing:
      return "processing";
    case RequestState::kSucceeded:
      return "succeeded";
    case RequestState::kFailed:
      return "failed";
  }
  return "";
}

Status query_request(Connection& connection, const std::string& source, const std::string& biz_seq,
                     RequestStatus* out) {
  const Binds key{{":source", source}, {":biz_seq", biz_seq}};
  RequestStatus status;
  bool succeeded = false, failed = false, under_way = false;
  StepResult flows = connection.query(
      "SELECT status, strategy, coalesce(reason, '') FROM transfer_flow "
      "WHERE source = :source AND biz_seq = :biz_seq ORDER BY id",
      key, [&](const Row& row) {
        if (status.flow_rows++ == 0) status.strategy = as_text(row[1]);
        succeeded |= as_int(row[0]) == 2;
        failed |= as_int(row[0]) == 3;
        under_way |= as_int(row[0]) < 2;
        if (as_int(row[0]) == 3) status.reason = as_text(row[2]);
      });
  if (!flows.ok()) return step_error(connection, flows);
  StepResult guards = connection.query(
      "SELECT (SELECT count(*) FROM dedup WHERE source = :source AND biz_seq = :biz_seq) + "
      "(SELECT count(*) FROM \"lock\" WHERE name = 'transfer:' || :source || ':' || :biz_seq)",
      key, [&](const Row& row) { under_way |= as_int(row[0]) > 0; });
  if (!guards.ok()) return step_error(connection, guards);
  status.state = succeeded   ? RequestState::kSucceeded
                 : failed    ? RequestState::kFailed
                 : under_way ? RequestState::kProcessing
                             : RequestState::kNotFound;
  *out = std::move(status);
  return Status::ok();
}

}  // namespace idemlab
