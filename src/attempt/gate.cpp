// The gate's two files: one the attempt writes, one it waits for.
#include "attempt/gate.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace idemlab {

bool wait_at_gate(const std::string& dir, int64_t cap_ms) {
  const std::string arrived = dir + "/arrived." + std::to_string(::getpid());
  if (std::FILE* file = std::fopen(arrived.c_str(), "w")) std::fclose(file);
  const std::string open = dir + "/open";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(cap_ms);
  struct stat info {};
  while (::stat(open.c_str(), &info) != 0) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace idemlab
