// What a step decided, in the values that decide it: "status 1→2", "version 0→1", "token
// used", "lock held by worker-3 until 1120 ms", "money moved: a03 -250". Timelines show this
// instead of SQL (--sql adds the SQL).
#pragma once

#include <string>

#include "db/connection.h"

namespace idemlab {

// `binds` are the values the statement ran with, `result` what it returned. Times are shown
// from `origin_ms`, where the timeline's clock starts.
std::string describe_values(Stmt stmt, const Binds& binds, const StepResult& result,
                            int64_t origin_ms = 0);
// The same on `engine`: a server's BEGIN takes no lock (SQLite's BEGIN IMMEDIATE takes the
// write lock), so there it says "transaction begins".
std::string describe_values_on(Engine engine, Stmt stmt, const Binds& binds,
                               const StepResult& result, int64_t origin_ms = 0);

}  // namespace idemlab
