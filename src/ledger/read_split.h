// Read/write splitting, as an ORM, a proxy or a middleware does it: the reads a strategy makes
// outside its write transaction go to a standby (--read-db), everything else to the primary,
// by the rule of ledger/read_policy.h (with read-your-writes, the primary answers while the
// standby is behind it). Live, both connections are a deployment's links (db/deployment.h),
// checked before the first read, and the standby's position is read from the servers
// (db/replication.h); the simulator gives its replica's state instead.
#pragma once

#include <memory>
#include <string>

#include "db/connection.h"
#include "ledger/read_policy.h"

namespace idemlab {

class ReadSplit final : public StatementRunner {
 public:
  // On the servers: both connections outlive this.
  ReadSplit(Connection& standby, Connection& primary, bool read_your_writes);
  // With the standby's state given (the simulator), and the place a read shows in messages.
  ReadSplit(Connection& standby, Connection& primary, bool read_your_writes,
            std::unique_ptr<StandbyState> state, std::string location);

  // The statements a split sends to the standby when no transaction is open: the reads.
  static bool routes(Stmt id);

  StepResult run(Stmt id, const Binds& binds) override;
  std::string_view statement_text(Stmt id) const override { return standby_->statement_text(id); }
  void set_trace(TraceSink sink) override { standby_->set_trace(std::move(sink)); }
  const std::string& location() const override {
    return location_.empty() ? standby_->location() : location_;
  }
  bool link_lost() const override { return standby_->link_lost(); }

  // Which server answered the reads so far and the last one, and how far the standby had
  // replayed when read-your-writes last asked ("" if it never did).
  int standby_reads() const { return standby_reads_; }
  int primary_reads() const { return primary_reads_; }
  bool last_on_standby() const { return last_ == ReadRoute::kStandby; }
  const std::string& standby_replayed() const { return state_->replayed(); }

 private:
  Connection* standby_;
  Connection* primary_;
  bool read_your_writes_;
  std::unique_ptr<StandbyState> state_;
  std::string location_;
  int standby_reads_ = 0;
  int primary_reads_ = 0;
  ReadRoute last_ = ReadRoute::kStandby;
};

}  // namespace idemlab
