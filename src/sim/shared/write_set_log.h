// WriteSetLog: the write sets a simulated ledger's connections commit, captured once from the
// statements they ran, for every model that replicates the ledger (the standby a read split
// reads, each Galera node). A write set is a transaction's writes that changed a row, each with
// the values it ran with and the row id it returned, handed to every follower at the virtual
// moment of its COMMIT; a write outside a transaction is a write set of its own. A committed
// transaction that changed nothing ships an empty set (a Galera cluster orders it too); one
// rolled back, or a COMMIT that failed, ships nothing. Followers apply what they are handed as
// they model it (after a lag; after certification), and hear when a transaction begins. A write
// no follower needs is left out of its set, but the set still says it changed a row: a write
// outside a transaction that no follower needs ships an empty set that did.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "db/connection.h"
#include "strategies/session.h"

namespace idemlab {

struct LoggedWrite {
  Stmt stmt = Stmt::kCount;
  Binds binds;
  int64_t returned_id = 0;  // the id its RETURNING gave (a flow inserted); 0: none
};

struct WriteSet {
  const Connection* connection = nullptr;  // where it was committed
  int64_t at_ms = 0;                       // its COMMIT's virtual moment
  std::vector<LoggedWrite> writes;         // those a follower needs
  bool changed = false;                    // whether it changed a row, needed or not
};

class WriteSetFollower {
 public:
  virtual ~WriteSetFollower() = default;
  // A write transaction began on `connection` (BEGIN IMMEDIATE succeeded).
  virtual void began(const Connection& connection) { (void)connection; }
  // Whether it needs `stmt`'s writes at all: the log keeps a write only if a follower does.
  virtual bool follows(Stmt stmt) const {
    (void)stmt;
    return true;
  }
  // `connection` ran `write` (it changed a row); inside a transaction it ships at the COMMIT.
  virtual void wrote(const Connection& connection, const LoggedWrite& write) {
    (void)connection;
    (void)write;
  }
  // A write set committed: each follower is handed a set of its own to keep.
  virtual void committed(WriteSet&& set) = 0;
  // `connection`'s transaction ended with nothing shipped (rolled back, or refused).
  virtual void ended(const Connection& connection) { (void)connection; }
};

class WriteSetLog {
 public:
  // `follower` hears every write set from now on; it outlives the log's use.
  void follow(WriteSetFollower* follower);
  bool followed() const { return !followers_.empty(); }
  // A statement `connection` ran, with its result, at `now_ms` (Stepper::on_run, or a write the
  // client made itself, such as a token it issued).
  void ran(const Connection& connection, const PendingStep& step, int64_t now_ms);
  // `connection`'s transaction was rolled back outside the steps the log follows (a COMMIT the
  // cluster refused): its writes ship nowhere.
  void rolled_back(const Connection& connection);
  // Forgets every open transaction (a failover: the connections' transactions died with it).
  void drop_open() { open_.clear(); }

 private:
  // A connection's transaction; kept, closed, between its transactions (no entry each time).
  struct Open {
    std::vector<LoggedWrite> writes;
    bool changed = false;
    bool open = false;  // a transaction is under way
  };
  void ship(const Connection& connection, Open transaction, int64_t now_ms);

  std::vector<WriteSetFollower*> followers_;
  std::vector<bool> followed_;  // by statement: whether a follower needs its writes
  Open& open_of(const Connection& connection);

  std::vector<std::pair<const Connection*, Open>> open_;
};

}  // namespace idemlab
