// Checks on request identifiers.
#include "ledger/request.h"

#include <fmt/format.h>

#include "core/quote.h"

namespace idemlab {

Status validate_biz_seq(std::string_view biz_seq, std::string_view field) {
  if (biz_seq.empty()) return Status::usage(fmt::format("{} is empty", field));
  if (biz_seq.size() > kMaxBizSeqLength)
    return Status::usage(fmt::format("{} {} is {} characters long; at most {}", field,
                                     in_quotes(biz_seq.substr(0, 24)) + "...", biz_seq.size(),
                                     kMaxBizSeqLength));
  for (unsigned char c : biz_seq)
    if (c <= 0x20 || c >= 0x7f)
      return Status::usage(
          fmt::format("{} {}: printable ASCII only, without spaces", field, in_quotes(biz_seq)));
  // `history --biz-seq --json` must not take --json as the id.
  if (biz_seq[0] == '-')
    return Status::usage(fmt::format("{} {}: must not start with '-'", field, in_quotes(biz_seq)));
  return Status::ok();
}

namespace {

Status validate_name(std::string_view what, std::string_view name) {
  auto bad = [&](std::string_view why) {
    return Status::usage(fmt::format("invalid {} {}: {}", what, in_quotes(name), why));
  };
  if (name.empty()) return bad("empty");
  if (name[0] == '-') return bad("must not start with '-'");
  if (name.size() > kMaxAccountNameLength)
    return bad(fmt::format("{} characters long; at most {}", name.size(), kMaxAccountNameLength));
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-';
    if (!ok) return bad("ASCII letters, digits, '_' or '-' only");
  }
  return Status::ok();
}

}  // namespace

Status validate_account_name(std::string_view name, std::string_view field) {
  return validate_name(field, name);
}

Status validate_source(std::string_view source, std::string_view field) {
  return validate_name(field, source);
}

Value key_value(const TransferRequest& request) {
  if (request.key_missing) return Value{};
  return request.biz_seq;
}

std::string payload_text(const TransferRequest& request) {
  return fmt::format("{}>{}:{}", request.from, request.to, request.amount_minor);
}

}  // namespace idemlab
