// Clock: where "now" comes from. One-attempt commands use the wall clock; a simulation injects
// its virtual clock, so nothing inside a simulation reads real time.
#pragma once

#include <cstdint>

namespace idemlab {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t now_ms() const = 0;
};

class WallClock final : public Clock {
 public:
  int64_t now_ms() const override;
};

class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_ms = 0) : now_ms_(start_ms) {}
  int64_t now_ms() const override { return now_ms_; }
  void set_ms(int64_t now_ms) { now_ms_ = now_ms; }
  void advance_ms(int64_t delta_ms) { now_ms_ += delta_ms; }

 private:
  int64_t now_ms_;
};

}  // namespace idemlab
