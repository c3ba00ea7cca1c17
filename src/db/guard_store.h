// GuardStore: a store that keeps only a strategy's guards, one-time tokens and transfer locks,
// apart from the ledger: Redis, as the references keep them (--redis). A strategy's session
// sends it the guard statements (statement_is_guard) and the ledger everything else. It runs
// each command whole and at once: nothing in it waits for a lock or spans a transaction.
#pragma once

#include <string>

#include "db/backend.h"

namespace idemlab {

class GuardStore : public StatementRunner {
 public:
  virtual ~GuardStore() = default;
  // The server answering, when the URL names several (the primary a set of Sentinels named:
  // "HOST:PORT"); "" when it names one.
  virtual std::string node() const { return ""; }
  // What that server is to the others, for a log line ("the Sentinels' primary").
  virtual std::string node_role() const { return "the Sentinels' primary"; }
  // The same in one word, beside the URL in an attempt's history row ("primary").
  virtual std::string node_label() const { return "primary"; }
};

// Whether `stmt` goes to `store`, when a strategy's guards are kept in one, rather than to the
// ledger.
inline bool goes_to_guards(const GuardStore* store, Stmt stmt) {
  return store && statement_is_guard(stmt);
}

}  // namespace idemlab
