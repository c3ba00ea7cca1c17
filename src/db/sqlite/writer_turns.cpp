// Waking writers of one process in turn.
#include "db/sqlite/writer_turns.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>

namespace idemlab {

namespace {
std::mutex g_mutex;
std::condition_variable g_ended;
uint64_t g_generation = 0;  // transactions ended in this process, under g_mutex
constexpr auto kLookAgain = std::chrono::milliseconds(10);  // for a lock another process holds
}  // namespace

void WriterTurn::before_statement() {
  std::lock_guard lock(g_mutex);
  seen_ = g_generation;
}

int WriterTurn::on_busy(void* turn_ptr, int tries) {
  auto* turn = static_cast<WriterTurn*>(turn_ptr);
  const auto now = std::chrono::steady_clock::now();
  if (tries == 0) turn->started_ = now;
  const auto deadline = turn->started_ + turn->timeout_;
  if (now >= deadline) return 0;
  std::unique_lock lock(g_mutex);
  g_ended.wait_until(lock, std::min(deadline, now + kLookAgain),
                     [&] { return g_generation != turn->seen_; });
  turn->seen_ = g_generation;
  return 1;
}

void WriterTurn::transaction_ended() {
  {
    std::lock_guard lock(g_mutex);
    ++g_generation;
  }
  g_ended.notify_all();
}

}  // namespace idemlab
