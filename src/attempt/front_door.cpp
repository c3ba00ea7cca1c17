// The one check of a request, and the attempt built from it.
#include "attempt/front_door.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>

#include "ledger/money.h"

namespace idemlab {

namespace {

std::string_view owner_word(Transport transport) {
  switch (transport) {
    case Transport::kCommandLine:
      return "cli";
    case Transport::kHttp:
      return "http";
    case Transport::kQueue:
      return "queue";
    case Transport::kRehearsal:
      break;
  }
  return "explain";
}

// The request's own fields, each checked and named as every transport names it.
Status read_request(const RequestText& text, Transport transport, TransferRequest* out) {
  RETURN_IF_ERROR(validate_source(text.source));
  out->source = text.source;
  if (!text.key) return Status::usage(fmt::format("{} is required", key_field(transport)));
  RETURN_IF_ERROR(validate_biz_seq(*text.key, key_field(transport)));
  out->biz_seq = *text.key;
  out->key_missing = text.key_missing;
  RETURN_IF_ERROR(validate_account_name(text.from, "from"));
  RETURN_IF_ERROR(validate_account_name(text.to, "to"));
  out->from = text.from;
  out->to = text.to;
  RETURN_IF_ERROR(parse_amount(text.amount, false, &out->amount_minor));
  out->token = text.token;
  return Status::ok();
}

Status read_token(const RequestText& text, const StrategyInfo& info) {
  if (info.needs_token && text.token.empty())
    return Status::refused("token_required",
                           "token is required (idemlab token issue, or POST /tokens, issues one)");
  if (text.token.size() > kMaxTokenLength)
    return Status::usage(
        fmt::format("token is {} characters long; at most {}", text.token.size(), kMaxTokenLength));
  return Status::ok();
}

}  // namespace

Result<AttemptSetup> admit(const RequestText& text, const AttemptPolicy& policy) {
  const StrategyInfo& info = policy.strategy->info();
  AttemptSetup setup;
  setup.strategy = policy.strategy;
  RETURN_IF_ERROR(read_request(text, policy.transport, &setup.request));
  RETURN_IF_ERROR(read_token(text, info));
  setup.options.pitfall = policy.pitfall;
  setup.options.token = text.token;
  setup.options.lock_ttl_ms = policy.lock_ttl_ms;
  setup.options.owner = policy.owner.empty() ? new_owner(policy.transport) : policy.owner;
  setup.options.unique_index = policy.unique_index && info.offers_unique_index;
  setup.options.fence = policy.fence && info.uses_lock_ttl;
  setup.faults = policy.faults;
  setup.allow_strategy_switch = policy.allow_strategy_switch;
  setup.log_attempt = policy.log_attempt;
  return setup;
}

std::string_view key_field(Transport transport) {
  switch (transport) {
    case Transport::kCommandLine:
      return "--biz-seq";
    case Transport::kHttp:
      return "Idempotency-Key";
    case Transport::kQueue:
    case Transport::kRehearsal:
      break;
  }
  return "biz_seq";
}

std::string new_owner(Transport transport) {
  static std::atomic<uint64_t> made{0};
  return fmt::format("{}-{}-{}", owner_word(transport), ::getpid(), ++made);
}

}  // namespace idemlab
