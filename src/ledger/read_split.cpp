// Read/write splitting by the shared read rule; on the servers, the standby's position read
// from them.
#include "ledger/read_split.h"

#include "db/replication.h"

namespace idemlab {

namespace {

// A standby server: asked, it compares the primary's position now (past every commit made
// before the read began, the client's own among them, answered or not) with its replay's.
class ServerStandby final : public StandbyState {
 public:
  ServerStandby(Connection& standby, Connection& primary)
      : standby_(&standby), primary_(&primary) {}

  StepResult before_read(Stmt, const Binds&, bool ask, bool* caught_up) override {
    if (!ask) return {};
    std::string lsn;
    Status status = commit_position(*primary_, &lsn);
    if (status.is_ok()) status = replayed_past(*standby_, lsn, caught_up, &replayed_);
    if (status.is_ok()) return {};
    StepResult failed;
    failed.code = StepCode::kConnectionLost;
    failed.error = status.message();
    return failed;
  }
  const std::string& replayed() const override { return replayed_; }

 private:
  Connection* standby_;
  Connection* primary_;
  std::string replayed_;
};

}  // namespace

ReadSplit::ReadSplit(Connection& standby, Connection& primary, bool read_your_writes)
    : ReadSplit(standby, primary, read_your_writes,
                std::make_unique<ServerStandby>(standby, primary), "") {}

ReadSplit::ReadSplit(Connection& standby, Connection& primary, bool read_your_writes,
                     std::unique_ptr<StandbyState> state, std::string location)
    : standby_(&standby),
      primary_(&primary),
      read_your_writes_(read_your_writes),
      state_(std::move(state)),
      location_(std::move(location)) {}

bool ReadSplit::routes(Stmt id) {
  switch (id) {
    case Stmt::kSelectFlow:
    case Stmt::kSelectDedup:
    case Stmt::kSelectToken:
      return true;
    default:
      return false;
  }
}

StepResult ReadSplit::run(Stmt id, const Binds& binds) {
  bool caught_up = true;
  if (StepResult failed = state_->before_read(id, binds, read_your_writes_, &caught_up);
      !failed.ok())
    return failed;
  last_ = route_read(read_your_writes_, caught_up);
  if (last_ == ReadRoute::kStandby) {
    ++standby_reads_;
    return standby_->run(id, binds);
  }
  ++primary_reads_;
  return primary_->run(id, binds);
}

}  // namespace idemlab
