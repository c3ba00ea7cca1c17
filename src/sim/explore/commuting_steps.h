// Which two steps of different attempts commute on a server: run in either order from the same
// state, they leave the same rows, the same locks and the same answers. explore on a server
// then tries one order of such a pair, not both (sleep sets: explore_server.cpp).
//
// The rule is narrow on purpose; anything it does not name is taken not to commute:
// - a BEGIN commutes with any step: on PostgreSQL and MariaDB it takes no lock and no snapshot
//   (the transaction's first statement does);
// - at READ COMMITTED and REPEATABLE READ, a plain read (no FOR UPDATE, no clock in its WHERE)
//   commutes with another plain read, and with a write inside another attempt's open
//   transaction while no statement is in flight: the read cannot see the uncommitted write, the
//   write cannot see the read, and with nothing parked the write cannot end a wait and so let
//   a third attempt's statement commit;
// - at SERIALIZABLE only the BEGIN rule holds: there a read takes predicate locks (PostgreSQL)
//   or row locks (MariaDB), and which of the pair meets the conflict can depend on the order.
// A step whose outcome depends on the virtual time it runs at (a lock's or a token's expiry,
// any command to Redis, whose keys expire on that clock) commutes with nothing: swapping two
// steps swaps their times. Nor does the step after which an attempt crashes, or any step of
// an attempt whose transaction the server ended.
#pragma once

#include "db/statements.h"

namespace idemlab {

// One attempt's next step, as far as commuting goes.
struct StepFacts {
  Stmt stmt = Stmt::kCount;
  bool in_transaction = false;  // the attempt has a transaction open on the server
  bool in_redis = false;        // the statement goes to Redis (--redis), not to the ledger
  // The attempt dies once this step is answered (explore --crash), or the server ended its
  // transaction (what then runs is outside one).
  bool opaque = false;
};

bool steps_commute(const StepFacts& a, const StepFacts& b, bool serializable,
                   bool statement_in_flight);

}  // namespace idemlab
