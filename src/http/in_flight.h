// The attempts a server has under way, each with when it is expected to finish: what a 409's
// Retry-After says. A twin refused while another attempt holds its key is told to come back
// when the holder should be done (its start, plus how long attempts here take, plus any slow
// fault it was dealt), not when the holder's lease would run out, which is the worst case.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace idemlab {

class InFlight {
 public:
  // Marks an attempt at `key` under way from `now_ms`, held up by `slowed_ms` of faults; it
  // stays marked until the Entry goes.
  class Entry {
   public:
    Entry(InFlight& owner, std::multimap<std::string, int64_t>::iterator at, int64_t start_ms)
        : owner_(&owner), at_(at), start_ms_(start_ms) {}
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;
    // `now_ms`: when it ended; its duration teaches the estimate.
    void finished(int64_t now_ms);
    ~Entry();

   private:
    InFlight* owner_;
    std::multimap<std::string, int64_t>::iterator at_;
    int64_t start_ms_;
    bool done_ = false;
  };

  Entry enter(const std::string& key, int64_t now_ms, int64_t slowed_ms);
  // When the latest attempt under way at `key` should finish; none if this server runs none.
  std::optional<int64_t> expected_finish(const std::string& key) const;
  // How long an attempt here takes, learnt from those that finished (1 ms before any has).
  int64_t typical_ms() const;

 private:
  mutable std::mutex mutex_;
  std::multimap<std::string, int64_t> finishes_;  // key -> expected finish, wall ms
  double typical_ms_ = 1.0;                       // moving average of unslowed durations
};

}  // namespace idemlab
