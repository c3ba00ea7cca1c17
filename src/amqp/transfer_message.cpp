// Writing and reading a transfer message.
#include "amqp/transfer_message.h"

#include <nlohmann/json.hpp>

#include "ledger/money.h"
#include "ledger/request.h"

namespace idemlab {

std::string message_body(const TransferRequest& request) {
  return nlohmann::ordered_json{{"source", request.source},
                                {"biz_seq", request.biz_seq},
                                {"from", request.from},
                                {"to", request.to},
                                {"amount", format_amount(request.amount_minor)}}
      .dump();
}

bool read_message_body(const std::string& body, TransferRequest* out, std::string* why) {
  const nlohmann::json parsed = nlohmann::json::parse(body, nullptr, false);
  const char* fields[] = {"source", "biz_seq", "from", "to", "amount"};
  if (parsed.is_discarded() || !parsed.is_object()) {
    *why = "the body is not a JSON object";
    return false;
  }
  for (const char* field : fields)
    if (!parsed.contains(field) || !parsed[field].is_string()) {
      *why = std::string("no text field ") + field;
      return false;
    }
  out->source = parsed["source"].get<std::string>();
  out->biz_seq = parsed["biz_seq"].get<std::string>();
  out->from = parsed["from"].get<std::string>();
  out->to = parsed["to"].get<std::string>();
  if (Status status = parse_amount(parsed["amount"].get<std::string>(), false, &out->amount_minor);
      !status.is_ok()) {
    *why = status.message();
    return false;
  }
  if (Status status = validate_biz_seq(out->biz_seq); !status.is_ok()) {
    *why = status.message();
    return false;
  }
  return true;
}

}  // namespace idemlab
