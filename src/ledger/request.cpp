// Checks on request identifiers.
#include "ledger/request.h"

#include <fmt/format.h>

namespace idemlab {

Status validate_biz_seq(std::string_view biz_seq) {
  if (biz_seq.empty()) return Status::usage("--biz-seq is empty");
  if (biz_seq.size() > kMaxBizSeqLength)
    return Status::usage(fmt::format("--biz-seq is longer than {} characters", kMaxBizSeqLength));
  for (unsigned char c : biz_seq)
    if (c <= 0x20 || c >= 0x7f)
      return Status::usage("--biz-seq must be printable ASCII without spaces");
  // `history --biz-seq --json` must not take --json as the id.
  if (biz_seq[0] == '-') return Status::usage("--biz-seq must not start with '-'");
  return Status::ok();
}

namespace {

Status validate_name(std::string_view what, std::string_view name) {
  auto bad = [&](std::string_view why) {
    return Status::usage(fmt::format("invalid {} '{}': {}", what, name, why));
  };
  if (name.empty()) return bad("empty");
  if (name[0] == '-') return bad("must not start with '-'");
  if (name.size() > kMaxAccountNameLength)
    return bad(fmt::format("longer than {} characters", kMaxAccountNameLength));
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-';
    if (!ok) return bad("use letters, digits, '_' or '-'");
  }
  return Status::ok();
}

}  // namespace

Status validate_account_name(std::string_view name) {
  return validate_name("account name", name);
}

Status validate_source(std::string_view source) {
  return validate_name("source", source);
}

Value key_value(const TransferRequest& request) {
  if (request.key_missing) return Value{};
  return request.biz_seq;
}

std::string payload_text(const TransferRequest& request) {
  return fmt::format("{}>{}:{}", request.from, request.to, request.amount_minor);
}

}  // namespace idemlab
