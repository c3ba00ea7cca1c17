// The one rule for where a read goes when an attempt's reads outside its write transaction are
// split off to a standby: the live client's --read-db (ledger/read_split.h) and the simulator's
// lagging replica (sim/shared/lagging_replica.h) both route by it, so that the simulator's
// table says what the servers do. Without read-your-writes every such read goes to the
// standby. With it, the standby is asked first how far it has replayed, before the read: a
// read goes there only when the standby has every commit the primary had made when the read
// began; otherwise the primary answers. A row the standby holds can be stale too (a flow it has
// as processing, the primary as succeeded), so a row found there is no proof it is caught up.
#pragma once

#include <string_view>

#include "db/connection.h"

namespace idemlab {

enum class ReadRoute { kStandby, kPrimary };

ReadRoute route_read(bool read_your_writes, bool standby_caught_up);

// What a split knows of its standby when a read begins: on the servers their log positions, in
// the simulator its replica's queue of commits.
class StandbyState {
 public:
  virtual ~StandbyState() = default;
  // Brings the standby's view up to the moment of the read `stmt` with `binds` (the simulator's
  // replica applies what is due and that read would see); with `ask`, sets *caught_up: whether
  // the standby has replayed every commit the primary has made. A failure is answered as the
  // read's own would be.
  virtual StepResult before_read(Stmt stmt, const Binds& binds, bool ask, bool* caught_up) = 0;
  // How far the standby had replayed when last asked, as its server writes it ("" if never).
  virtual const std::string& replayed() const = 0;
};

}  // namespace idemlab
