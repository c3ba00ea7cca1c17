// Read/write splitting with an optional read-your-writes rule.
#include "ledger/read_split.h"

#include "db/replication.h"

namespace idemlab {

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

StepResult ReadSplit::caught_up(bool* past) {
  // The primary's position now is past every commit made before this read began: the
  // client's own, whether or not its answer arrived.
  std::string lsn;
  Status status = commit_position(*primary_, &lsn);
  if (status.is_ok()) status = replayed_past(*standby_, lsn, past, &replayed_);
  if (status.is_ok()) return {};
  StepResult failed;
  failed.code = StepCode::kConnectionLost;
  failed.error = status.message();
  return failed;
}

StepResult ReadSplit::run(Stmt id, const Binds& binds) {
  StepResult read = standby_->run(id, binds);
  // A row found is a past that happened; only "not found" can be a past not yet replayed.
  if (!read_your_writes_ || !read.ok() || read.row) {
    ++standby_reads_;
    return read;
  }
  bool past = false;
  if (StepResult failed = caught_up(&past); !failed.ok()) return failed;
  if (past) {
    ++standby_reads_;
    return read;
  }
  ++primary_reads_;
  return primary_->run(id, binds);
}

}  // namespace idemlab
