// Tests for db/postgres/commit_notice: a COMMIT libpq calls a success, while a notice says it
// might not have been replicated, is an unknown outcome.
#include <doctest/doctest.h>

#include "db/postgres/commit_notice.h"

using namespace idemlab;

TEST_CASE("a success the server warned might not be replicated is unknown, once") {
  CommitNotice notice;
  record_notice(&notice,
                "WARNING:  canceling wait for synchronous replication due to user request\n"
                "DETAIL:  The transaction has already committed locally, but might not have been "
                "replicated to the standby.\n");
  CHECK(notice.unreplicated);
  const StepResult unknown = unreplicated_commit(StepResult{}, &notice);
  CHECK(unknown.code == StepCode::kConnectionLost);
  CHECK(unknown.error.find("canceling wait for synchronous replication") != std::string::npos);
  CHECK(unreplicated_commit(StepResult{}, &notice).ok());  // the notice was for that commit only
}

TEST_CASE("other notices, and failures, pass through") {
  CommitNotice notice;
  record_notice(&notice, "NOTICE:  relation \"t\" already exists, skipping\n");
  CHECK(unreplicated_commit(StepResult{}, &notice).ok());
  record_notice(&notice, "FATAL:  terminating connection: might not have been replicated\n");
  const StepResult failed{StepCode::kDeadlock, 0, std::nullopt, "deadlock"};
  CHECK(unreplicated_commit(failed, &notice).code == StepCode::kDeadlock);
  CHECK_FALSE(notice.unreplicated);
}
