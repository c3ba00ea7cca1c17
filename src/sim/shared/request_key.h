// How the simulator names its requests, both ways, in one place. Request i (0-based) comes from
// source i mod n and is numbered i / n + 1 within it ("r12"); a retry under a fresh key adds
// ".k" ("r12.2"). The verdicts read each journal entry's request back through request_of, the
// exact inverse of biz_seq_of (a property test checks it), so no table of a million keys is
// kept beside the run.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idemlab {

class RequestKeys {
 public:
  explicit RequestKeys(const std::vector<std::string>& sources) : sources_(sources) {}

  const std::string& source_of(uint32_t request) const {
    return sources_[request % sources_.size()];
  }
  // The biz_seq of `request` under its key number `key` (0: the request's own key).
  std::string biz_seq_of(uint32_t request, uint8_t key) const;
  // The request that (source, biz_seq) names, or -1 if no simulated request does.
  int64_t request_of(std::string_view source, std::string_view biz_seq) const;

 private:
  const std::vector<std::string>& sources_;
};

}  // namespace idemlab
