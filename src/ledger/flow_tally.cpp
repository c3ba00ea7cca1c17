// One pass over the flow rows through their (source, biz_seq) index: a request's rows arrive
// together, so each is summed, handed on and forgotten.
#include "ledger/flow_tally.h"

namespace idemlab {

namespace {

// Each flow row, in request order, with whether the journal holds an entry of its
// request (a probe of the journal's (source, biz_seq) index).
constexpr const char* kFlowsInRequestOrder =
    "SELECT source, biz_seq, status, CASE WHEN outcome = 'applied' THEN 1 ELSE 0 END, "
    "CASE WHEN EXISTS (SELECT 1 FROM journal j WHERE j.source = f.source AND "
    "j.biz_seq = f.biz_seq) THEN 1 ELSE 0 END "
    "FROM transfer_flow f ORDER BY source, biz_seq";

void add_row(const Row& row, RequestFlows* request) {
  const int64_t status = as_int(row[2]);
  request->rows += 1;
  request->succeeded += status == 2;
  request->applied += status == 2 && as_int(row[3]) != 0;
  request->failed += status == 3;
  request->moved = as_int(row[4]) != 0;
}

}  // namespace

Status tally_flows(Connection& connection, const FlowVisitor& on_request) {
  RequestFlows request;
  bool open = false;
  StepResult result = connection.query(kFlowsInRequestOrder, {}, [&](const Row& row) {
    std::string source = as_text(row[0]), biz_seq = as_text(row[1]);
    const bool keyed = !is_null(row[1]);
    if (!open || source != request.source || biz_seq != request.biz_seq || keyed != request.keyed) {
      if (open) on_request(request);
      request = RequestFlows{std::move(source), std::move(biz_seq), keyed};
      open = true;
    }
    add_row(row, &request);
  });
  if (!result.ok()) return step_error(connection, result);
  if (open) on_request(request);
  return Status::ok();
}

}  // namespace idemlab
