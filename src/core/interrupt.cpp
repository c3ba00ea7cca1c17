// The interrupt flag and its signal handlers.
#include "core/interrupt.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <thread>

namespace idemlab {

namespace {
volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_signal(int signal) {
  g_signal = signal;
}
}  // namespace

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
