// What a POST /transfers carries, read and checked before anything is opened: the
// Idempotency-Key header, as draft-ietf-httpapi-idempotency-key-header-07 writes it (a
// structured-field string) or as many clients send it (a bare token), and a body that is a JSON
// object or a form with exactly the transfer's fields. Anything else is answered with the
// problem that names it; nothing is written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/listener.h"

namespace idemlab {

struct TransferInput {
  std::optional<std::string> key;  // the Idempotency-Key, when the request carries one
  std::string from;
  std::string to;
  int64_t amount_minor = 0;
  std::string token;  // the token strategy's, from the body
};

// Reads the header's value: "..." with \" and \\ escapes, or a bare token; the key is then a
// biz_seq (1 to 64 printable characters, no spaces). False, with why, when it is neither.
bool parse_idempotency_key(std::string_view value, std::string* key, std::string* why);

// Decodes an application/x-www-form-urlencoded body into its pairs, in order. False when a
// pair is not key=value or holds a bad %-escape.
bool parse_form(std::string_view body, std::vector<std::pair<std::string, std::string>>* out);

// Reads a transfer from `message`; on a bad request, fills `problem` and returns false.
bool read_transfer_input(const HttpMessage& message, TransferInput* out, HttpReply* problem);

// The same from fields already read: exactly from, to and amount (and token), each valid.
bool transfer_from_fields(const std::vector<std::pair<std::string, std::string>>& fields,
                          TransferInput* out, HttpReply* problem);

}  // namespace idemlab
