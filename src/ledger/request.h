// A transfer request and the checks on its identifiers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace idemlab {

constexpr size_t kMaxBizSeqLength = 64;
constexpr size_t kMaxAccountNameLength = 32;

struct TransferRequest {
  std::string biz_seq;  // globally unique request id
  std::string from;
  std::string to;
  int64_t amount_minor = 0;
  std::string token;  // token strategy only
};

// biz_seq: 1..64 printable ASCII characters, no spaces.
Status validate_biz_seq(std::string_view biz_seq);
// account names: 1..32 of [A-Za-z0-9_-].
Status validate_account_name(std::string_view name);

// "alice>bob:1000": what a repeat must match to be a repeat, not a mismatch.
std::string payload_text(const TransferRequest& request);

}  // namespace idemlab
