// The audit's findings of one kind, and how a finding names its request.
#pragma once

#include <fmt/format.h>

#include <string>
#include <vector>

#include "ledger/audit.h"

namespace idemlab {

// Findings of one kind: the first kMaxViolationsPerCheck listed, the rest counted.
class Findings {
 public:
  explicit Findings(const char* kind) : kind_(kind) {}
  void add(std::string source, std::string biz_seq, std::string detail) {
    if (count_++ < kMaxViolationsPerCheck)
      listed_.push_back({kind_, std::move(source), std::move(biz_seq), std::move(detail)});
  }
  void append_to(std::vector<Violation>* out) const {
    out->insert(out->end(), listed_.begin(), listed_.end());
    if (count_ > kMaxViolationsPerCheck)
      out->push_back(
          {kind_, "", "", fmt::format("... and {} more", count_ - kMaxViolationsPerCheck)});
  }
  const char* kind() const { return kind_; }

 private:
  const char* kind_;
  int count_ = 0;
  std::vector<Violation> listed_;
};

// How a detail names a request: its biz_seq, with its source in front unless it is the default
// one (the queries' REQUEST_LABEL says the same in SQL).
inline std::string request_label(const std::string& source, const std::string& biz_seq) {
  return source == "api" ? biz_seq : source + "/" + biz_seq;
}

}  // namespace idemlab
