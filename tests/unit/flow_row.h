// Test seam: the values of a flow row of request `biz_seq` (source api, alice pays bob 1.00),
// for tests that insert one with insert_flow and its kin.
#pragma once

#include <cstdint>

#include "db/backend.h"

namespace idemlab::test {

inline Binds flow_binds(const char* biz_seq, int64_t status = 2) {
  return {{":source", "api"},          {":biz_seq", biz_seq},
          {":from", "alice"},          {":to", "bob"},
          {":amount", int64_t{100}},   {":status", status},
          {":unique_key", int64_t{1}}, {":strategy", "test"},
          {":now", int64_t{10}}};
}

}  // namespace idemlab::test
