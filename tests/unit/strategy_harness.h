// Test seam: runs strategy attempts on a scratch ledger, one at a time (direct driver) or
// interleaved step by step (Stepper), and counts what the journal says moved.
#pragma once

#include <fmt/format.h>

#include "attempt/direct.h"
#include "core/clock.h"
#include "ledger/ledger.h"
#include "scratch.h"
#include "sim/shared/stepper.h"

namespace idemlab::test {

inline TransferRequest request(std::string biz_seq, int64_t amount = 1000,
                               std::string from = "alice", std::string to = "bob") {
  return {std::move(biz_seq), std::move(from), std::move(to), amount, ""};
}

inline int64_t journal_pairs(Connection& connection, const std::string& biz_seq) {
  int64_t pairs = -1;
  StepResult counted =
      connection.query("SELECT count(*) FROM journal WHERE biz_seq = :b AND side = 'debit'",
                       {{":b", biz_seq}}, [&](const Row& row) { pairs = as_int(row[0]); });
  REQUIRE(counted.ok());
  return pairs;
}
inline int64_t journal_pairs(const LedgerFile& ledger, const std::string& biz_seq) {
  Connection connection = ledger.open();
  return journal_pairs(connection, biz_seq);
}

// Issues a token valid for `ttl_ms` on `clock`.
inline std::string fresh_token(Connection& connection, const Clock& clock, int64_t ttl_ms = 60000) {
  static uint64_t counter = 0;
  IssuedToken token;
  REQUIRE(issue_token(connection, clock, ++counter, 0x1d3, ttl_ms, &token).is_ok());
  return token.token;
}

inline Answer attempt_once(Connection& connection, const Clock& clock, const Strategy& strategy,
                           const TransferRequest& req, StrategyOptions options = {}) {
  AttemptSetup setup;
  setup.strategy = &strategy;
  setup.request = req;
  if (options.owner.empty()) options.owner = "test";
  setup.options = options;
  AttemptReport report;
  REQUIRE(run_direct_attempt(connection, clock, setup, &report).is_ok());
  return report.answer;
}

// Advances attempt `index` until its next step is `step`, it finishes, or SQLite answers busy
// (the step waits for a lock another attempt holds; it stays pending).
inline void run_until(Stepper& stepper, size_t index, std::string_view step) {
  for (int guard = 0; guard < 100 && !stepper.finished(index); ++guard) {
    if (stepper.pending(index).step == step) return;
    if (stepper.advance(index).result.code == StepCode::kBusy) return;
  }
}

// Runs every attempt to its end, round robin; an attempt that SQLite answers busy keeps its
// step and waits for the next round.
inline void run_all(Stepper& stepper) {
  for (int guard = 0; guard < 10000; ++guard) {
    bool progressed = false, all_done = true;
    for (size_t i = 0; i < stepper.size(); ++i) {
      if (stepper.finished(i)) continue;
      all_done = false;
      progressed |= stepper.advance(i).result.code != StepCode::kBusy;
    }
    if (all_done) return;
    REQUIRE(progressed);
  }
  FAIL("attempts did not finish");
}

}  // namespace idemlab::test
