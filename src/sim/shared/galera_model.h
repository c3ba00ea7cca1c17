// GaleraModel: a MariaDB Galera cluster in the simulator, in memory and deterministic. Each node
// is a scratch SQLite ledger of its own, following the run's write-set log (write_set_log.h), so a
// transaction's locks stop at its node, as InnoDB's do on Galera. A transaction runs on its node
// alone; at COMMIT the cluster certifies it: it fails (1213, answered busy: certification_failed)
// when a transaction another node committed after this one began, and this node had not applied yet
// when it began, wrote a row this one writes (the same account, flow, dedup record, token or lock).
// A certified commit gets the cluster's next seqno, and its writes, statement by statement with the
// same values, are applied by every other node `apply_ms` later (an applier that lags; 0: at once),
// in seqno order, once the node's write lock is free (the journal on node 1 alone: the run is
// judged there, and no attempt reads it elsewhere). A read on a node that has not applied
// everything is stale, unless causal reads (wsrep_sync_wait=1) first apply everything.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/connection.h"
#include "sim/shared/scratch_ledger.h"
#include "sim/shared/write_set_log.h"
#include "strategies/session.h"

namespace idemlab {

struct GaleraSettings {
  int nodes = 3;
  int64_t apply_ms = 0;          // how long after a commit the other nodes apply it
  bool causal_reads = false;     // wsrep_sync_wait=1: a read first waits for its node to apply
  bool flow_unique = true;       // the flow's unique key exists (no --pitfall=no-unique-index)
  bool retry_autocommit = true;  // wsrep_retry_autocommit=1: see refuses_autocommit()
};

// What a node answers a transaction the cluster did not certify: MariaDB's 1213 at COMMIT.
StepResult certification_failure();
// The timeline's line for node `node` (0-based) having applied the commits after `before`
// through `after`.
std::string applied_text(int node, int64_t before, int64_t after);

class GaleraModel final : public WriteSetFollower {
 public:
  GaleraModel() = default;
  GaleraModel(const GaleraModel&) = delete;
  GaleraModel& operator=(const GaleraModel&) = delete;

  // `first` (the run's ledger, node 1) and every other node, a copy of what it holds now,
  // following `log` (which outlives it) from now on.
  Status open(const ScratchLedger& first, Connection& first_connection,
              const GaleraSettings& settings, WriteSetLog* log);
  int nodes() const { return settings_.nodes; }
  // A connection to node `node` (0-based), for an attempt; place() then says where it is kept.
  Result<Connection> connect(int node) const { return nodes_[node].ledger->connect(); }
  void place(const Connection* connection, int node) { node_of_[connection] = node; }
  // The log's news: a transaction began, wrote, committed (and gets the cluster's next
  // seqno) or ended with nothing committed.
  void began(const Connection& connection) override;
  void wrote(const Connection& connection, const LoggedWrite& write) override;
  void committed(WriteSet&& set) override;
  void ended(const Connection& connection) override { open_.erase(&connection); }
  // Before the COMMIT of `connection`'s transaction: whether the cluster certifies it. A
  // certified one is committed in the cluster's order when the log ships its write set.
  bool certify(const Connection& connection);
  // With retry_autocommit off, an autocommit INSERT `step` on `connection`'s node that writes a
  // row another node committed and this node has not applied: run there, it would find no such
  // row, and certification would refuse it (1213). (With it on, the node runs it again until
  // its applier has caught up: the simulator runs it after the node caught up.)
  bool refuses_autocommit(const Connection& connection, const PendingStep& step);
  // Applies on every node what is due at `now_ms`, where the node's write lock lets it in.
  void apply_due(int64_t now_ms);
  // The same on node `node` alone, before a step there. What a node holds is seen only by the
  // steps that run on it (certification reads the cluster's log, not a node), so applying a
  // node's backlog just before its next step shows every step what applying it the moment it
  // fell due would, in fewer of its applier's transactions.
  void apply_due_on(int node, int64_t now_ms);
  // Whether `stmt`, run on `connection` outside a transaction, first waits until its node has
  // applied every commit: a read or a BEGIN with causal reads (wsrep_sync_wait=1 covers SELECT
  // and BEGIN), and an autocommit write with retry_autocommit (Galera retries the loser once
  // the winner is applied; without the retry it runs on what its node has, and
  // refuses_autocommit() may turn it away).
  bool waits_for_applier(const Connection& connection, Stmt stmt) const;
  // A causal read on `node`: its node applies every commit it has not, due or not (the wait
  // takes no virtual time). False: a transaction on the node holds its write lock; try again.
  bool apply_for_read(int node);
  int node_of(const Connection& connection) const;
  // The seqno up to which node `node` has every commit (its own and those it applied).
  int64_t applied(int node) const;
  // At the end of the run: every node applies everything.
  Status apply_all();
  int64_t certification_failures() const { return certification_failures_; }

 private:
  // A flow row's name across the cluster: the node that inserted it and its id there. Each node
  // numbers its rows itself (as Galera's auto_increment_offset does), so a write naming a flow
  // by id is translated to the id the row has on the node applying it.
  using FlowName = std::pair<int, int64_t>;
  struct Write {
    Stmt stmt;
    Binds binds;
    FlowName flow{-1, 0};  // the flow row it inserts or names by :flow_id; -1: none
  };
  struct Committed {
    int64_t seqno;
    int node;
    int64_t at_ms;
    std::set<std::string> keys;
    std::vector<Write> writes;
  };
  struct Node {
    std::unique_ptr<ScratchLedger> own;  // nodes 2..N; node 1 is the run's ledger
    const ScratchLedger* ledger = nullptr;
    Connection applier;
    std::deque<const Committed*> pending;              // other nodes' commits, not applied yet
    std::map<FlowName, int64_t> flow_ids;              // a flow's name -> its id here
    std::unordered_map<int64_t, FlowName> flow_names;  // its id here -> its name
  };

  Status apply(Node& node, int64_t now_ms, bool all);
  void forget();
  std::string write_key(Stmt stmt, const Binds& binds) const;
  // The flow row `write` (run on `node`) inserts or names, by its name.
  FlowName name_flow(int node, const LoggedWrite& write);
  // Applies `write` on `node`, its flow id translated to the node's own.
  void apply_write(Node& node, const Write& write);
  void name_here(Node& node, const FlowName& name, int64_t id);

  GaleraSettings settings_;
  std::vector<Node> nodes_;
  std::unordered_map<const Connection*, int> node_of_;
  // Each open transaction: its node's applied seqno when it began, and the rows it wrote.
  struct Open {
    int64_t began_after = -1;
    std::set<std::string> keys;
  };
  std::unordered_map<const Connection*, Open> open_;
  std::deque<Committed> log_;  // the certified commits still needed, by seqno (1-based)
  int64_t last_seqno_ = 0;     // the newest commit's
  int64_t certification_failures_ = 0;
};

}  // namespace idemlab
