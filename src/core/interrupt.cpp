// The interrupt flag and its signal handlers.
#include "core/interrupt.h"

#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

namespace idemlab {

namespace {
volatile std::sig_atomic_t g_signal = 0;

// The sockets blocked on now, one slot per waiting thread, each holding fd + 1 (0: free, as a
// static starts). Lock-free, so that the handler may read them.
constexpr int kWaitingSlots = 256;
std::atomic<int> g_waiting[kWaitingSlots];
// How many UncutWaits this thread holds.
thread_local int t_uncut = 0;

extern "C" void on_signal(int signal) {
  g_signal = signal;
  for (std::atomic<int>& slot : g_waiting)
    if (const int fd_plus_one = slot.load(); fd_plus_one > 0)
      ::shutdown(fd_plus_one - 1, SHUT_RDWR);
}
}  // namespace

WaitingSocket::WaitingSocket(int fd) {
  if (fd < 0 || t_uncut > 0) return;
  for (int i = 0; i < kWaitingSlots; ++i) {
    int free = 0;
    if (g_waiting[i].compare_exchange_strong(free, fd + 1)) {
      slot_ = i;
      break;
    }
  }
  // A signal that came already is not acted on here: a run that stops needs its other
  // connections for its clean-up, and every wait is bounded besides.
}

WaitingSocket::~WaitingSocket() {
  if (slot_ >= 0) g_waiting[slot_].store(0);
}

UncutWaits::UncutWaits() {
  ++t_uncut;
}

UncutWaits::~UncutWaits() {
  --t_uncut;
}

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void ignore_broken_pipes() {
  struct sigaction action {};
  action.sa_handler = SIG_IGN;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPIPE, &action, nullptr);
}

int interrupt_signal() {
  return g_signal;
}

bool waits_are_cut() {
  return g_signal != 0 && t_uncut == 0;
}

Status check_interrupt() {
  if (g_signal == 0) return Status::ok();
  return Status::interrupted(g_signal == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)");
}

bool sleep_unless_interrupted(int64_t ms) {
  constexpr int64_t kSliceMs = 50;
  for (int64_t left = ms; left > 0 && g_signal == 0; left -= kSliceMs)
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(left, kSliceMs)));
  return g_signal == 0;
}

}  // namespace idemlab
