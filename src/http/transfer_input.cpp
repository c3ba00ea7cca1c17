// Reading a transfer request off the wire.
#include "http/transfer_input.h"

#include <fmt/format.h>

#include <array>

#include "http/problem.h"
#include "ledger/request.h"

namespace idemlab {

namespace {

// A key sent without quotes: any visible characters (a UUID, as many clients send), unless the
// value reads as another structured-field type (RFC 8941): a number, a byte sequence
// (:...:), a boolean (?1), an inner list ((...)), or an item with parameters.
bool bare_token(std::string_view value) {
  if (value.empty() || value.front() == ':' || value.front() == '?' || value.front() == '(')
    return false;
  bool number = true;
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (c <= 0x20 || c >= 0x7f || c == '"' || c == ',' || c == ';' || c == '\\') return false;
    const bool digit = c >= '0' && c <= '9';
    if (!digit && c != '.' && !(c == '-' && i == 0)) number = false;
  }
  return !number;
}

bool quoted_string(std::string_view value, std::string* text, std::string* why) {
  for (size_t i = 1; i + 1 < value.size(); ++i) {
    if (value[i] == '\\') {
      if (i + 2 >= value.size() || (value[i + 1] != '"' && value[i + 1] != '\\')) {
        *why = "a string may escape only \" and \\";
        return false;
      }
      ++i;
    } else if (value[i] == '"') {
      *why = "an unescaped \" inside the string";
      return false;
    }
    text->push_back(value[i]);
  }
  return true;
}

std::string media_type(const HttpMessage& message) {
  const std::string* type = message.header("content-type");
  if (!type) return "";
  std::string out = type->substr(0, type->find(';'));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool invalid(HttpReply* problem, std::string detail) {
  *problem = problem_reply(Problem::kInvalidField, detail);
  return false;
}

bool read_key_header(const HttpMessage& message, RequestText* out, HttpReply* problem) {
  const size_t headers = message.headers.count("idempotency-key");
  if (headers == 0) return true;
  if (headers > 1) {
    *problem = problem_reply(Problem::kInvalidIdempotencyKey,
                             "Idempotency-Key is given twice: the header is one string, not a "
                             "list; send one key per request");
    return false;
  }
  std::string key, why;
  if (!parse_idempotency_key(*message.header("idempotency-key"), &key, &why)) {
    *problem = problem_reply(Problem::kInvalidIdempotencyKey, why);
    return false;
  }
  out->key = std::move(key);
  return true;
}

}  // namespace

bool parse_idempotency_key(std::string_view value, std::string* key, std::string* why,
                           std::string_view field) {
  std::string text;
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    if (!quoted_string(value, &text, why)) {
      *why = fmt::format("{}: {}", field, *why);
      return false;
    }
  } else if (bare_token(value)) {
    text = std::string(value);
  } else if (!value.empty() && value.find_first_of(" \t") != std::string_view::npos) {
    text = std::string(value);  // validate_biz_seq names what is wrong with it
  } else if (!value.empty()) {
    *why = fmt::format("{} is neither a \"string\" nor a token", field);
    return false;
  }
  if (Status status = validate_biz_seq(text, field); !status.is_ok()) {
    *why = status.message();
    return false;
  }
  *key = std::move(text);
  return true;
}

bool read_body_fields(const HttpMessage& message, RequestFields* out, HttpReply* problem) {
  if (message.body_too_large) {
    *problem = problem_reply(Problem::kPayloadTooLarge, "the body is too large");
    return false;
  }
  const std::string type = media_type(message);
  const bool json = type == "application/json";
  if (!json && type != "application/x-www-form-urlencoded") {
    *problem = problem_reply(
        Problem::kUnsupportedMediaType,
        fmt::format("Content-Type {} is not JSON or a form", type.empty() ? "(none)" : type));
    return false;
  }
  std::string why;
  if (!(json ? read_json_fields(message.body, out, &why)
             : read_form_fields(message.body, out, &why))) {
    *problem = problem_reply(Problem::kMalformedBody, why);
    return false;
  }
  return true;
}

bool transfer_from_fields(const RequestFields& fields, RequestText* out, HttpReply* problem) {
  static constexpr std::array<std::string_view, 4> kNames{"from", "to", "amount", "token"};
  std::vector<std::string> values;
  std::vector<bool> given;
  std::string why;
  if (!pick_fields(fields, kNames, &values, &given, &why)) return invalid(problem, why);
  for (size_t i = 0; i < 3; ++i)
    if (!given[i]) return invalid(problem, fmt::format("{} is missing", kNames[i]));
  out->from = values[0];
  out->to = values[1];
  out->amount = values[2];
  out->token = values[3];
  return true;
}

bool read_transfer_input(const HttpMessage& message, RequestText* out, HttpReply* problem) {
  RequestFields fields;
  return read_key_header(message, out, problem) && read_body_fields(message, &fields, problem) &&
         transfer_from_fields(fields, out, problem);
}

}  // namespace idemlab
