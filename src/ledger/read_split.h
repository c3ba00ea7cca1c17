// Read/write splitting, as an ORM, a proxy or a middleware does it: the reads a strategy makes
// outside its write transaction go to a standby (--read-db), everything else to the primary.
// A standby that has not replayed the first attempt answers "not found" for a request that was
// applied; with read-your-writes such an answer is trusted only once the standby has replayed
// past the primary's log position (db/replication.h), and otherwise the primary is asked. Both
// connections are a deployment's links (db/deployment.h), checked before the first read.
#pragma once

#include <string>

#include "db/connection.h"

namespace idemlab {

class ReadSplit final : public StatementRunner {
 public:
  // Both outlive this.
  ReadSplit(Connection& standby, Connection& primary, bool read_your_writes)
      : standby_(&standby), primary_(&primary), read_your_writes_(read_your_writes) {}

  // The statements a split sends to the standby when no transaction is open: the reads.
  static bool routes(Stmt id);

  StepResult run(Stmt id, const Binds& binds) override;
  std::string_view statement_text(Stmt id) const override { return standby_->statement_text(id); }
  void set_trace(TraceSink sink) override { standby_->set_trace(std::move(sink)); }
  const std::string& location() const override { return standby_->location(); }
  bool link_lost() const override { return standby_->link_lost(); }

  // Which server answered the reads so far, and how far the standby had replayed when
  // read-your-writes last asked ("" if it never did).
  int standby_reads() const { return standby_reads_; }
  int primary_reads() const { return primary_reads_; }
  const std::string& standby_replayed() const { return replayed_; }

 private:
  // Read-your-writes: whether the standby has replayed everything the primary has committed.
  // An error is answered as the standby's own would be.
  StepResult caught_up(bool* past);

  Connection* standby_;
  Connection* primary_;
  bool read_your_writes_;
  int standby_reads_ = 0;
  int primary_reads_ = 0;
  std::string replayed_;
};

}  // namespace idemlab
