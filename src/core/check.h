// Checks that stay on in release builds, at the seams where a broken invariant would otherwise
// corrupt a run quietly (a delivery freed twice, an event queue that goes back in time, money
// not conserved before a commit): the process says what broke and where, and aborts. They
// guard idemlab's own logic, never input: bad input is a Status.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace idemlab {

[[noreturn]] inline void check_failed(const char* what, const char* condition, const char* file,
                                      int line) {
  std::fprintf(stderr, "idemlab: internal check failed: %s (%s at %s:%d)\n", what, condition, file,
               line);
  std::fflush(nullptr);
  std::abort();
}

}  // namespace idemlab

// IDEMLAB_CHECK(condition, "what it means when it fails")
#define IDEMLAB_CHECK(condition, what) \
  ((condition) ? (void)0 : ::idemlab::check_failed(what, #condition, __FILE__, __LINE__))
