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

Status list_attempts(Connection& connection, const std::optional<std::string>& biz_seq,
                     int64_t limit, std::vector<AttemptRecord>* out) {
  out->clear();
  Binds binds{{":limit", limit}};
  if (biz_seq) binds.push_back({":biz_seq", *biz_seq});
  StepResult result = connection.query(
      "SELECT * FROM (SELECT id, biz_seq, strategy, pitfall, outcome, reason, replayed, fault, "
      "at_ms FROM attempt WHERE :biz_seq IS NULL OR biz_seq = :biz_seq ORDER BY id DESC "
      "LIMIT :limit) ORDER BY id",
      binds, [&](const Row& row) {
        out->push_back({as_int(row[0]), as_text(row[1]), as_text(row[2]), as_int(row[3]) != 0,
                        as_text(row[4]), as_text(row[5]), as_int(row[6]) != 0, as_text(row[7]),
                        as_int(row[8])});
      });
  if (!result.ok()) return step_error(connection, result);
  return Status::ok();
}

Status issue_token(Connection& connection, const Clock& clock, uint64_t entropy_high,
                   uint64_t entropy_low, int64_t ttl_ms, IssuedToken* out) {
  IssuedToken token{fmt::format("{:016x}{:016x}", entropy_high, entropy_low),
                    add_ms(clock.now_ms(), ttl_ms)};
  StepResult result = connection.run(
      Stmt::kInsertToken,
      {{":token", token.token}, {":now", clock.now_ms()}, {":expires", token.expires_at_ms}});
  if (result.code == StepCode::kBusy) return Status::busy("database is locked: " + result.error);
  if (!result.ok()) return step_error(connection, result);
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

Status query_request(Connection& connection, const std::string& biz_seq, RequestStatus* out) {
  RequestStatus status;
  bool succeeded = false, failed = false, under_way = false;
  StepResult flows = connection.query(
      "SELECT status, strategy, coalesce(reason, '') FROM transfer_flow WHERE biz_seq = :biz_seq "
      "ORDER BY id",
      {{":biz_seq", biz_seq}}, [&](const Row& row) {
        if (status.flow_rows++ == 0) status.strategy = as_text(row[1]);
        succeeded |= as_int(row[0]) == 2;
        failed |= as_int(row[0]) == 3;
        under_way |= as_int(row[0]) < 2;
        if (as_int(row[0]) == 3) status.reason = as_text(row[2]);
      });
  if (!flows.ok()) return step_error(connection, flows);
  StepResult guards = connection.query(
      "SELECT (SELECT count(*) FROM dedup WHERE biz_seq = :biz_seq) + (SELECT count(*) FROM lock "
      "WHERE name = 'transfer:' || :biz_seq)",
      {{":biz_seq", biz_seq}}, [&](const Row& row) { under_way |= as_int(row[0]) > 0; });
  if (!guards.ok()) return step_error(connection, guards);
  status.state = succeeded   ? RequestState::kSucceeded
                 : failed    ? RequestState::kFailed
                 : under_way ? RequestState::kProcessing
                             : RequestState::kNotFound;
  *out = std::move(status);
  return Status::ok();
}

}  // namespace idemlab
