// One generator behind a mutex, seeded from std::random_device.
#include "http/secret.h"

#include <fmt/format.h>

#include <mutex>
#include <random>

namespace idemlab {

uint64_t secret_word() {
  static std::mutex mutex;
  static std::mt19937_64 entropy{std::random_device{}()};
  std::lock_guard lock(mutex);
  return entropy();
}

std::string secret_hex(int digits) {
  return fmt::format("{:0{}x}", secret_word() >> (64 - 4 * digits), digits);
}

}  // namespace idemlab
