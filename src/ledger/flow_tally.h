// The flow rows, tallied in one pass in request order: how many rows each request has, how many
// say it succeeded (and applied) or failed, and whether the journal holds any entry of it. The
// audit's checks that set the flows against the journal read this one pass instead of querying
// each on its own.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "db/connection.h"

namespace idemlab {

// One request's flow rows, summed.
struct RequestFlows {
  std::string source;
  std::string biz_seq;  // "" for the rows of `source` that carry no key (biz_seq NULL)
  bool keyed = true;
  int64_t rows = 0;       // flow rows of the request (a unique index allows one)
  int64_t succeeded = 0;  // status 2
  int64_t applied = 0;    // status 2 with the outcome 'applied': the row says money moved
  int64_t failed = 0;     // status 3
  bool moved = false;     // the journal holds an entry of the request
};
using FlowVisitor = std::function<void(const RequestFlows&)>;

// Calls `on_request` for every request with a flow row, in (source, biz_seq) order, holding one
// request at a time; a source's rows that carry no key come together as one, not keyed. A request
// is its rows' bytes: on an engine whose text is not equal as bytes
// (EngineTraits::text_equal_as_bytes) the audit asks its own queries instead.
Status tally_flows(Connection& connection, const FlowVisitor& on_request);

}  // namespace idemlab
