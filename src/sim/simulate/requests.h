// One request as its client sees it, owned by the Clients (client.h). Internal to
// src/sim/simulate/.
#pragma once

#include <cstdint>

namespace idemlab::sim {

enum class ClientPhase : uint8_t { kIdle, kWaiting, kBackoff, kDone, kGaveUp };

struct RequestRecord {
  int64_t created_ms = -1;
  int64_t finished_ms = -1;
  uint8_t attempts_sent = 0;
  uint8_t keys = 1;  // how many keys the request used (key=fresh adds one per retry)
  ClientPhase phase = ClientPhase::kIdle;
  bool current_resolved = false;  // the current attempt got an answer or timed out
  bool told_success = false;
  bool definitive = false;  // the client got a definitive answer
  bool saw_in_progress_last = false;
  bool inconsistent = false;
  bool token_waiting = false;  // the client's token write found the lock taken
  int16_t token_key = -1;      // the key whose token the client holds (token strategy)
  int8_t first_outcome = -1;   // first definitive answer the server gave, for agreement
  uint16_t first_reason = 0;
  uint32_t statements = 0;
};

}  // namespace idemlab::sim
