// A COMMIT whose wait for a synchronous standby was cancelled: libpq reports it as a success
// (PGRES_COMMAND_OK, tag COMMIT), and only a WARNING notice says "The transaction has already
// committed locally, but might not have been replicated to the standby." A failover to that
// standby loses it. Neither applied nor failed: the attempt's outcome is unknown.
#pragma once

#include <string>

#include "db/backend.h"

namespace idemlab {

struct CommitNotice {
  bool unreplicated = false;  // the last notice said so
  std::string text;           // its first line
};

// libpq's notice processor (PQsetNoticeProcessor): `arg` is a CommitNotice.
void record_notice(void* arg, const char* message);

// A statement's result, checked against the notices that came with it: a success the server
// warned might not be replicated becomes a lost connection (unknown, 75). Clears the notice.
StepResult unreplicated_commit(StepResult result, CommitNotice* notice);

}  // namespace idemlab
