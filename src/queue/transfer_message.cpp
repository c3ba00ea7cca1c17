// Writing and reading a transfer message.
#include "queue/transfer_message.h"

#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>

#include "attempt/request_fields.h"
#include "ledger/money.h"

namespace idemlab {

std::string message_body(const TransferRequest& request) {
  return nlohmann::ordered_json{{"source", request.source},
                                {"biz_seq", request.biz_seq},
                                {"from", request.from},
                                {"to", request.to},
                                {"amount", format_amount(request.amount_minor)}}
      .dump();
}

bool read_message_body(const std::string& body, RequestText* out, std::string* why) {
  static constexpr std::array<std::string_view, 5> kNames{"source", "biz_seq", "from", "to",
                                                          "amount"};
  RequestFields fields;
  std::vector<std::string> values;
  std::vector<bool> given;
  if (!read_json_fields(body, &fields, why) || !pick_fields(fields, kNames, &values, &given, why))
    return false;
  for (size_t i = 0; i < kNames.size(); ++i)
    if (!given[i]) {
      *why = fmt::format("{} is missing", kNames[i]);
      return false;
    }
  out->source = values[0];
  out->key = values[1];
  out->from = values[2];
  out->to = values[3];
  out->amount = values[4];
  return true;
}

}  // namespace idemlab
