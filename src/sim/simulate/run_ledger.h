// The run's connections into its scratch ledger (opened by the StepRunner): the client's own
// (tokens, status queries, the audit), the busy fault's other writer, the attempts' pool, the
// guard store where tokens and locks go, and the replicas of both (replicas.h).
// Internal to src/sim/simulate/.
#pragma once

#include <memory>
#include <vector>

#include "core/clock.h"
#include "db/connection.h"
#include "db/guard_store.h"
#include "ledger/read_split.h"
#include "sim/shared/replicas.h"
#include "sim/simulate/simulate.h"

namespace idemlab::sim {

class RunLedger {
 public:
  explicit RunLedger(const SimOptions& options) : options_(options) {}
  // Every connection closes before the replicas and the ledger they reach go.
  ~RunLedger() {
    guard_store = nullptr;
    reads_.clear();
    pool_.clear();
    client = Connection();
    busy = Connection();
  }

  Connection client;                  // tokens, status queries, the audit
  Connection busy;                    // the busy fault's other writer
  GuardStore* guard_store = nullptr;  // --redis or guards=replica: where tokens and locks go
  Replicas replicas;                  // the ledger's and the guard store's

  // Whether ran() has anyone to tell.
  bool followed() { return recording() || replicas.log(); }
  // A statement `connection` ran on the ledger (or on the guard store, which no replica of
  // the ledger follows), at `now_ms`: for bench-sim's recorder and the write-set log.
  void ran(const Connection& connection, const PendingStep& step, int64_t now_ms) {
    record(connection, step.stmt, step.binds);
    WriteSetLog* log = replicas.log();
    if (log && &runner_for(connection, step.stmt) == &connection)
      log->ran(connection, step, now_ms);
  }

  // With a read standby: where the attempt on `connection` sends its reads outside a
  // transaction.
  StatementRunner* reads_for(Connection* connection, const Clock& clock, bool read_your_writes) {
    LaggingReplica* standby = replicas.read_standby();
    if (!standby) return nullptr;
    std::unique_ptr<ReadSplit>& reads = reads_[connection];
    if (!reads) reads = replica_reads(*standby, *connection, clock, read_your_writes);
    return reads.get();
  }

  // A connection to node `node` (0 but on a cluster) for an attempt: a free one, or a new one
  // `open` makes.
  template <class Open>
  Connection* take(int node, Open open) {
    if (free_.size() <= static_cast<size_t>(node)) free_.resize(static_cast<size_t>(node) + 1);
    std::vector<Connection*>& free = free_[static_cast<size_t>(node)];
    if (free.empty()) {
      pool_.push_back(std::make_unique<Connection>(open()));
      node_of_[pool_.back().get()] = node;
      epoch_of_[pool_.back().get()] = epoch_;
      return pool_.back().get();
    }
    Connection* connection = free.back();
    free.pop_back();
    return connection;
  }
  // A connection closed because its link was lost (on a server) is never lent again.
  void give_back(Connection* connection) {
    if (!connection->is_open()) return;
    free_[static_cast<size_t>(node_of_.at(connection))].push_back(connection);
  }

  // On a server, the times the run connected again after a lost link (ServerFlights::relink):
  // a connection opened before the latest may be on a server that is gone.
  uint64_t epoch() const { return epoch_; }
  uint64_t epoch_of(const Connection* connection) const { return epoch_of_.at(connection); }
  // Begins a new epoch, closing every idle connection of an older one that `stale` picks.
  template <class Pick>
  void next_epoch(Pick stale) {
    for (std::vector<Connection*>& free : free_)
      std::erase_if(free, [&](Connection* connection) {
        if (!stale(*connection)) return false;
        *connection = Connection();
        return true;
      });
    ++epoch_;
  }

  // For the timeline, with a replica: where the read `stmt` the attempt on `connection` just
  // made went; "" for any other statement.
  std::string_view read_place(const Connection& connection, Stmt stmt) const {
    if (reads_.empty() || !ReadSplit::routes(stmt) || connection.in_transaction()) return "";
    const auto reads = reads_.find(&connection);
    if (reads == reads_.end()) return "";
    return reads->second->last_on_standby() ? " (on the standby)"
                                            : " (on the primary: the replica is behind)";
  }
  // Where a statement runs: the guard store (Redis) for tokens and locks, if in use.
  const StatementRunner& runner_for(const Connection& attempt, Stmt stmt) const {
    if (goes_to_guards(guard_store, stmt)) return *guard_store;
    return attempt;
  }
  // bench-sim's recorder: a statement sent on `connection` (SimOptions::record), by number:
  // 0 the client's, 1 the busy writer's, 2 on the attempts' in the order they were opened.
  bool recording() const { return options_.record != nullptr; }
  void record(const Connection& connection, Stmt stmt, const Binds& binds) const {
    if (!options_.record) return;
    uint32_t index = &connection == &client ? 0 : &connection == &busy ? 1 : 2;
    for (size_t i = 0; i < pool_.size(); ++i)
      if (pool_[i].get() == &connection) index = static_cast<uint32_t>(i + 2);
    options_.record->push_back({index, stmt, binds});
  }

 private:
  const SimOptions& options_;
  std::vector<std::unique_ptr<Connection>> pool_;  // the attempts' connections
  std::vector<std::vector<Connection*>> free_;     // by node
  std::unordered_map<const Connection*, int> node_of_;
  std::unordered_map<const Connection*, uint64_t> epoch_of_;
  uint64_t epoch_ = 0;
  std::unordered_map<const Connection*, std::unique_ptr<ReadSplit>> reads_;
};

// A connection of the run's own (the client's), as a statement runner whose statements the
// ledger's followers hear as they hear an attempt's steps: no write reaches the ledger unseen.
class FollowedRunner final : public StatementRunner {
 public:
  FollowedRunner(RunLedger& ledger, Connection& connection, const Clock& clock)
      : ledger_(&ledger), connection_(&connection), clock_(&clock) {}
  StepResult run(Stmt id, const Binds& binds) override {
    PendingStep step{"", id, binds, connection_->run(id, binds)};
    ledger_->ran(*connection_, step, clock_->now_ms());
    return std::move(step.result);
  }
  std::string_view statement_text(Stmt id) const override {
    return connection_->statement_text(id);
  }
  void set_trace(TraceSink sink) override { connection_->set_trace(std::move(sink)); }
  const std::string& location() const override { return connection_->location(); }

 private:
  RunLedger* ledger_;
  Connection* connection_;
  const Clock* clock_;
};

}  // namespace idemlab::sim
