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

}  // namespace idemlab
