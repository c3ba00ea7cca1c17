// A transfer request and the checks on its identifiers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/limits.h"
#include "core/status.h"
#include "db/value.h"

namespace idemlab {

using limits::kMaxAccountNameLength;
using limits::kMaxBizSeqLength;
using limits::kMaxTokenLength;

inline constexpr std::string_view kDefaultSource = "api";

// A request is identified by (source, biz_seq): each source numbers its own requests.
struct TransferRequest {
  std::string biz_seq;  // the request's id within its source; the journal is tagged with it
  std::string from;
  std::string to;
  int64_t amount_minor = 0;
  std::string token;                   // token strategy only
  std::string source{kDefaultSource};  // who sent it: "api", "batch", ...
  bool key_missing = false;            // sent without its idempotency key: guards see
                                       // NULL where the key goes (--pitfall=missing-key)
};

// What a guard stores as the request's key: biz_seq, or NULL when the client left it out.
Value key_value(const TransferRequest& request);

// Each check's refusal names the field as the user gave it (`field`: "--biz-seq",
// "Idempotency-Key", "from", ...) and quotes what was typed, made printable (core/quote.h).
// biz_seq: 1..64 printable ASCII characters, no spaces.
Status validate_biz_seq(std::string_view biz_seq, std::string_view field = "--biz-seq");
// account names: 1..32 of [A-Za-z0-9_-].
Status validate_account_name(std::string_view name, std::string_view field = "account name");
// sources: 1..32 of [A-Za-z0-9_-], like account names.
Status validate_source(std::string_view source, std::string_view field = "source");

// "alice>bob:1000": what a repeat must match to be a repeat, not a mismatch.
std::string payload_text(const TransferRequest& request);

}  // namespace idemlab
