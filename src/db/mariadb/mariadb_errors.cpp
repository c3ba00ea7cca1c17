// What MariaDB's answers mean: its error numbers to a strategy, and its InnoDB status report's
// lock waits to the simulator.
#include <fmt/format.h>

#include "db/mariadb/mariadb_backend.h"

namespace idemlab {

bool innodb_status_shows_lock_wait(std::string_view status, int64_t thread) {
  const std::string thread_line = fmt::format(" thread id {},", thread);
  size_t at = 0;
  while ((at = status.find("---TRANSACTION ", at)) != std::string_view::npos) {
    const size_t next = status.find("---TRANSACTION ", at + 1);
    const std::string_view block = status.substr(at, next - at);
    if (block.find(thread_line) != std::string_view::npos)
      return block.find("\nLOCK WAIT ") != std::string_view::npos;
    at = next;
  }
  return false;
}

StepCode mariadb_step_code(unsigned error_number) {
  switch (error_number) {
    case 1062:  // ER_DUP_ENTRY
    case 1586:  // ER_DUP_ENTRY_WITH_KEY_NAME
    case 1048:  // ER_BAD_NULL_ERROR
    case 1451:  // ER_ROW_IS_REFERENCED_2
    case 1452:  // ER_NO_REFERENCED_ROW_2
    case 4025:  // ER_CONSTRAINT_FAILED (CHECK)
      return StepCode::kConstraint;
    case 1020:  // ER_CHECKREAD: the record changed since the snapshot read it
      return StepCode::kSerialization;
    case 1213:  // ER_LOCK_DEADLOCK
      return StepCode::kDeadlock;
    case 1205:  // ER_LOCK_WAIT_TIMEOUT
      return StepCode::kLockTimeout;
    case 2006:  // CR_SERVER_GONE_ERROR
    case 2013:  // CR_SERVER_LOST
    case 2055:  // CR_SERVER_LOST_EXTENDED
    case 1927:  // ER_CONNECTION_KILLED
    case 1053:  // ER_SERVER_SHUTDOWN: the node is going down
      return StepCode::kConnectionLost;
    case 1290:  // ER_OPTION_PREVENTS_STATEMENT: --read-only (a replica)
    case 1836:  // ER_READ_ONLY_MODE
      return StepCode::kReadOnly;
    case 1047:  // ER_UNKNOWN_COM_ERROR: a Galera node not in the primary component, or
                // syncing ("WSREP has not yet prepared node for application use")
      return StepCode::kNotReady;
    default:
      return StepCode::kError;
  }
}

}  // namespace idemlab
