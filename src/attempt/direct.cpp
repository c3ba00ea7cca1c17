// The one-attempt driver: every step runs inline; faults act on the real process.
#include "attempt/direct.h"

#include <fmt/format.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <thread>

#include "attempt/checked_transfer.h"
#include "attempt/fault_site.h"
#include "attempt/gate.h"
#include "attempt/process_stop.h"
#include "attempt/wire_faults.h"
#include "db/replication.h"

namespace idemlab {

namespace {

// The store the strategy's guards are kept in, when they are kept outside the ledger (a token's
// or a lock's strategy given --redis or --locks); nullptr otherwise.
const GuardStore* guards_outside_ledger(const AttemptSetup& setup) {
  return setup.strategy->info().keeps_guards() ? setup.guard_store : nullptr;
}

const FaultSpec* armed(const AttemptSetup& setup, FaultKind kind) {
  for (const FaultSpec& fault : setup.faults)
    if (fault.kind == kind) return &fault;
  return nullptr;
}

// The fault an attempt's history row names: the lost answer's, or the first fault given.
std::string fault_text(const AttemptSetup& setup) {
  if (const FaultSpec* lost = wire_faults(setup.faults).response_lost) return lost->text;
  return setup.faults.empty() ? std::string() : setup.faults.front().text;
}

// Whether the server rolled the attempt's transaction back and stays writable (a certification
// failure, a deadlock, a serialization failure): such an attempt leaves its row like any other.
// The other busy answers (the ledger locked, the connection lost, a read-only server) do not:
// the row's write would wait or fail too.
bool rolled_back_by_server(const Answer& answer) {
  return answer.outcome == Outcome::kBusy &&
         (answer.reason == reason::kCertificationFailed || answer.reason == reason::kDeadlock ||
          answer.reason == reason::kSerializationFailure);
}

// Where a guard kept outside the ledger was: the URL, and the server that answered when it names
// several ("redis-sentinel://S1,S2/m (primary HOST:PORT)", "etcd://E1,E2 (member HOST:PORT)").
std::string guard_store_shown(const GuardStore& store) {
  const std::string node = store.node();
  return node.empty() ? store.location()
                      : fmt::format("{} ({} {})", store.location(), store.node_label(), node);
}

// The attempts log is a record for people. Written alone after the answer, a row that cannot be
// written (the ledger went busy) changes nothing: the answer given stands. Written in the
// transaction that commits the answer (DirectDriver::committing), its failure fails the attempt.
StepResult log_attempt(Connection& connection, const Clock& clock, const AttemptSetup& setup,
                       const AttemptReport& report) {
  const Answer& logged = report.server_answer;
  if (!setup.log_attempt || is_input_rejection(logged)) return {};
  if (logged.outcome == Outcome::kBusy && !rolled_back_by_server(logged)) return {};
  const std::string isolation = connection.isolation();
  const std::string node = connection.node();
  const GuardStore* guards = guards_outside_ledger(setup);
  return connection.run(
      Stmt::kLogAttempt,
      {{":source", setup.request.source},
       {":biz_seq", setup.request.biz_seq},
       {":strategy", std::string(setup.strategy->info().name)},
       {":pitfall", setup.options.pitfall == Pitfall::kNone
                        ? Value{}
                        : Value{std::string(pitfall_name(setup.options.pitfall))}},
       {":outcome", std::string(outcome_name(logged.outcome))},
       {":reason", logged.reason.empty() ? Value{} : Value{logged.reason}},
       {":replayed", int64_t{logged.replayed ? 1 : 0}},
       {":fault", report.fault.empty() ? Value{} : Value{report.fault}},
       {":now", clock.now_ms()},
       {":isolation", isolation.empty() ? Value{} : Value{isolation}},
       {":guard_store", guards ? Value{guard_store_shown(*guards)} : Value{}},
       {":node", node.empty() ? Value{} : Value{node}}});
}

class DirectDriver final : public Driver {
 public:
  // `last_words` runs just before a crash fault kills the process, told whether the money
  // moved and is committed.
  DirectDriver(const AttemptSetup& setup, const Clock& clock,
               std::function<void(bool committed)> last_words)
      : setup_(setup),
        clock_(clock),
        sites_(slow_default_step(setup.strategy->info(), setup.options.pitfall), Phase::kNone),
        last_words_(std::move(last_words)) {
    for (const FaultSpec& fault : setup.faults) sites_.arm(fault);
  }

  bool park(Session& session, std::coroutine_handle<>) override {
    PendingStep& step = session.pending();
    if (const int64_t pause = sites_.pause_before(step))
      pause_for(pause, fmt::format("before step '{}'", step.step));
    if (sites_.crash_before(step)) crash(fmt::format("before step '{}'", step.step));
    session.run_pending();
    if (step.stmt == Stmt::kCommit) logged_ = logging_ && step.result.ok();
    // A step runs inline: the attempt is finished only when the coroutine returns.
    sites_.ran(step.stmt, step.result, session.connection().in_transaction(), false);
    if (setup_.observer) setup_.observer(step);
    if (sites_.crash_after(step.step)) crash(fmt::format("after step '{}'", step.step));
    if (const int64_t pause = sites_.pause_after_commit()) pause_for(pause, "after its commit");
    return false;  // ran: the attempt goes on
  }

  // The history row goes into the transaction that commits the answer: one commit, one
  // fdatasync, for an applied attempt. A COMMIT that fails takes the row with it, and the row
  // of the answer given instead is written alone afterwards.
  StepResult committing(Session& session, const Answer& answer) override {
    if (!setup_.log_attempt) return {};
    AttemptReport committed;
    committed.server_answer = answer;
    committed.fault = fault_text(setup_);
    StepResult written = log_attempt(session.connection(), clock_, setup_, committed);
    logging_ = written.ok();
    return written;
  }
  // Whether the attempt's history row is committed already, with the money.
  bool logged() const { return logged_; }

 private:
  // A slow fault sleeps, or with gate= waits at its gate (at most `ms`); a pause fault stops
  // the whole process the same way.
  void pause_for(int64_t ms, const std::string& where) const {
    const FaultSpec* stop = armed(setup_, FaultKind::kPause);
    if (setup_.fault_acts)
      setup_.fault_acts(stop ? *stop : *armed(setup_, FaultKind::kSlow), where);
    if (stop)
      stop_process(ms, std::string(sites_.pause_gate()));
    else if (const std::string_view gate = sites_.pause_gate(); !gate.empty())
      (void)wait_at_gate(std::string(gate), ms);  // a gate never opened: the attempt goes on
    else
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  }

  // A real crash: no destructors, no rollback, no close; SQLite recovers on the next open. It
  // says so first, in one line, so that a shell shows more than "Killed".
  [[noreturn]] void crash(const std::string& where) const {
    const FaultSpec& fault = *armed(setup_, FaultKind::kCrash);
    if (setup_.fault_acts) setup_.fault_acts(fault, where);
    const bool committed = sites_.phases().committed();
    std::fprintf(stderr, "crash: fault %s %s: this process dies now (SIGKILL); %s\n",
                 fault.text.c_str(), where.c_str(),
                 committed ? "the transfer is committed, its answer never sent"
                           : "nothing it began is committed");
    last_words_(committed && !logged_);
    std::fflush(nullptr);
    ::raise(SIGKILL);
    ::_exit(137);
  }

  const AttemptSetup& setup_;
  const Clock& clock_;
  FaultSites sites_;
  std::function<void(bool)> last_words_;
  bool logging_ = false;  // the history row is in the open transaction
  bool logged_ = false;   // and that transaction committed
};

// The strategy that served the request first on this ledger, or "" if none did.
Status served_by(Connection& connection, const TransferRequest& request, std::string* out) {
  StepResult found =
      connection.run(Stmt::kServedBy, {{":source", request.source}, {":biz_seq", request.biz_seq}});
  if (!found.ok()) return step_error(connection, found);
  *out = found.row ? as_text((*found.row)[0]) : "";
  return Status::ok();
}

// Before any work: an attempt answers without running when another strategy served the
// request first, or when the request is lost on its way. Returns whether it answered.
bool answered_before_work(Connection& connection, const AttemptSetup& setup, AttemptReport* report,
                          Status* status) {
  if (!setup.allow_strategy_switch) {
    std::string first;
    if (*status = served_by(connection, setup.request, &first); !status->is_ok()) return true;
    if (!first.empty() && first != setup.strategy->info().name) {
      report->answer = report->server_answer =
          Answer::of(Outcome::kMismatch, reason::kStrategySwitch);
      report->served_by = first;
      return true;
    }
  }
  if (const FaultSpec* lost = wire_faults(setup.faults).request_lost) {
    if (setup.fault_acts) setup.fault_acts(*lost, "before the server");
    report->answer = report->server_answer = Answer::of(Outcome::kTimeout, reason::kRequestLost);
    report->fault = lost->text;
    return true;
  }
  return false;
}

// After the work: what the client hears when its answer is lost, and the fault to record.
void apply_answer_faults(const AttemptSetup& setup, AttemptReport* report) {
  if (const FaultSpec* lost = wire_faults(setup.faults).response_lost) {
    if (setup.fault_acts) setup.fault_acts(*lost, "after the server answered");
    report->answer = Answer::of(Outcome::kTimeout, reason::kResponseLost);
  }
  report->fault = fault_text(setup);
}

// A crash after the money's commit leaves the attempt in the log, as applied by a server that
// died before it answered: a retry's replay then has its original. (What the dying attempt
// had open after that commit is rolled back first, as its death would.)
void log_crashed_attempt(Connection& connection, const Clock& clock, const AttemptSetup& setup) {
  connection.rollback_if_open();
  AttemptReport crashed;
  crashed.server_answer = Answer::of(Outcome::kApplied);
  crashed.fault = armed(setup, FaultKind::kCrash)->text;
  (void)log_attempt(connection, clock, setup, crashed);
}

}  // namespace

Status run_direct_attempt(Connection& connection, const Clock& clock, const AttemptSetup& setup,
                          AttemptReport* out) {
  AttemptReport report;
  report.where = where_ran(connection, false);
  Status status;
  if (answered_before_work(connection, setup, &report, &status)) {
    if (status.is_ok()) *out = std::move(report);
    return status;
  }
  DirectDriver driver(setup, clock, [&](bool committed) {
    if (committed) log_crashed_attempt(connection, clock, setup);
  });
  Session session(connection, clock, driver, setup.options);
  session.use_guard_store(setup.guard_store);
  session.use_reads(setup.reads, &ReadSplit::routes);
  Task<Answer> task = checked_transfer(session, *setup.strategy, setup.request);
  task.start();
  if (!task.done()) return Status::internal("a one-attempt strategy suspended");
  report.server_answer = report.answer = task.take();
  report.lost_connection = session.lost_connection();
  report.unreplicated = session.unreplicated();
  connection.rollback_if_open();  // a strategy that forgot must not leave a transaction open
  if (connection.damaged())
    return Status::damaged(fmt::format("{} is damaged: {}; the attempt was rolled back",
                                       connection.location(), report.server_answer.reason));
  apply_answer_faults(setup, &report);
  if (report.answer.outcome == Outcome::kInProgress)
    (void)find_key_holder(connection, setup.request.source, setup.request.biz_seq, clock.now_ms(),
                          &report.holder);  // a hint: without it the answer still stands
  if (!driver.logged()) (void)log_attempt(connection, clock, setup, report);
  report.where = where_ran(connection, report.server_answer.outcome == Outcome::kApplied);
  if (const GuardStore* guards = guards_outside_ledger(setup)) {
    report.where.guard_node = guards->node();
    report.where.guard_node_role = guards->node_role();
  }
  *out = std::move(report);
  return Status::ok();
}

}  // namespace idemlab
