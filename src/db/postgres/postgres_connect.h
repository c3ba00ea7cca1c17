// Opening a libpq connection without blocking past connect_timeout, and what a failure to
// open one means: a server busy for now, failover candidates none of which takes writes now
// (both retryable), or a definite refusal.
#pragma once

#include "core/status.h"
#include "db/locator.h"
#include "db/postgres/libpq.h"

namespace idemlab {

// libpq's connect, driven here: each wait on the socket is bounded by connect_timeout and
// stopped by a signal (db/server/connect_wait.h), which PQconnectdb's own wait is not.
Result<PGconn*> connect_within(const LibPq& pq, const Locator& locator, const char* const* keys,
                               const char* const* values);

}  // namespace idemlab
