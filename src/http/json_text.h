// JsonObjectText: a flat JSON object written straight as text, field by field, byte for byte as
// json_body() (problem.h) writes the same object built as a nlohmann::ordered_json: compact, in
// the order given, a newline after it. For the answers serve gives most often (GET
// /accounts/NAME, GET /transfers/ID, a transfer's 201), where building the nlohmann value first,
// then dumping it, cost more instructions than the ledger read a GET reports. Each string is
// quoted and escaped as nlohmann's dump() with error_handler_t::replace writes it (bytes that
// are not UTF-8 become U+FFFD).
#pragma once

#include <string>
#include <string_view>

namespace idemlab {

class JsonObjectText {
 public:
  JsonObjectText& string(std::string_view key, std::string_view value);
  JsonObjectText& null(std::string_view key);
  // The object, closed, and the newline every body ends with.
  std::string body() &&;

 private:
  void key(std::string_view name);

  std::string text_ = "{";
};

}  // namespace idemlab
