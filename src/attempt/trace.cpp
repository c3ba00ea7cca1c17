// Rehearsing a strategy on a scratch ledger.
#include "attempt/trace.h"

#include <fmt/format.h>

#include "attempt/front_door.h"
#include "attempt/step_values.h"
#include "db/schema/ledger_file.h"
#include "ledger/ledger.h"

namespace idemlab {

std::string describe_result(Stmt stmt, const StepResult& result) {
  switch (result.code) {
    case StepCode::kConstraint:
      return "constraint violated";
    case StepCode::kBusy:
      return "busy";
    case StepCode::kBusySnapshot:
      return "busy snapshot";
    case StepCode::kDamaged:
      return "damaged file: " + result.error;
    case StepCode::kSerialization:
      return "serialization failure: rolled back";
    case StepCode::kDeadlock:  // a lone server takes no lock at COMMIT: a cluster certified
      return stmt == Stmt::kCommit ? "certification failed: rolled back" : "deadlock: rolled back";
    case StepCode::kLockTimeout:
      return "lock wait timeout";
    case StepCode::kConnectionLost:
      return "connection lost";
    case StepCode::kReadOnly:
      return "read-only server: nothing written";
    case StepCode::kNotReady:
      return "cluster node not ready: nothing written";
    case StepCode::kUnreplicated:
      return "written on the primary, too few replicas acknowledged";
    case StepCode::kDiskFull:
      return "disk full: nothing written";
    case StepCode::kIoError:
      return "disk I/O error: " + result.error;
    case StepCode::kError:
      return "error: " + result.error;
    case StepCode::kOk:
      break;
  }
  std::string_view sql = statement_sql(stmt);
  if (sql.starts_with("SELECT")) return result.row ? "row" : "no row";
  if (sql.starts_with("BEGIN") || sql == "COMMIT" || sql == "ROLLBACK") return "ok";
  return fmt::format("{} row{} changed", result.changes, result.changes == 1 ? "" : "s");
}

Status rehearse(const Strategy& strategy, Pitfall pitfall, std::vector<TracedAttempt>* out,
                Engine engine) {
  ConnectionOptions options;
  options.create = true;
  Locator in_memory;
  in_memory.path = ":memory:";
  ASSIGN_OR_RETURN(Connection connection, open_connection(in_memory, options));
  RETURN_IF_ERROR(create_schema(connection, {{"alice", 10000}, {"bob", 0}}));
  ManualClock clock(1'000'000);
  IssuedToken token;
  RETURN_IF_ERROR(issue_token(connection, clock, 0xfeed, 0xbeef, 60000, &token));
  RequestText text;
  text.key = "explain-1";
  text.from = "alice";
  text.to = "bob";
  text.amount = "25.00";
  text.token = token.token;
  AttemptPolicy policy;
  policy.transport = Transport::kRehearsal;
  policy.strategy = &strategy;
  policy.pitfall = pitfall;
  policy.owner = "explain";  // the same every run: explain's output is the same bytes
  policy.log_attempt = false;
  ASSIGN_OR_RETURN(AttemptSetup setup, admit(text, policy));
  out->clear();
  for (const char* label : {"first attempt", "repeat"}) {
    TracedAttempt attempt{label, {}, {}};
    setup.observer = [&](const PendingStep& step) {
      attempt.steps.push_back({std::string(step.step), std::string(statement_name(step.stmt)),
                               std::string(engine_statement_sql(engine, step.stmt)),
                               describe_result(step),
                               describe_values_on(engine, step.stmt, step.binds, step.result)});
    };
    AttemptReport report;
    RETURN_IF_ERROR(run_direct_attempt(connection, clock, setup, &report));
    attempt.answer = report.answer;
    out->push_back(std::move(attempt));
    clock.advance_ms(10);
  }
  return Status::ok();
}

}  // namespace idemlab
