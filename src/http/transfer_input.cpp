// Reading a transfer request off the wire.
#include "http/transfer_input.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "http/problem.h"
#include "ledger/money.h"
#include "ledger/request.h"

namespace idemlab {

namespace {

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool url_decode(std::string_view text, std::string* out) {
  out->clear();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out->push_back(' ');
    } else if (text[i] != '%') {
      out->push_back(text[i]);
    } else {
      if (i + 2 >= text.size() || hex(text[i + 1]) < 0 || hex(text[i + 2]) < 0) return false;
      out->push_back(static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2])));
      i += 2;
    }
  }
  return true;
}

// A token as RFC 8941 writes one (ALPHA then tchar, ':' or '/'), and the printable keys clients
// send bare (UUIDs, numbers).
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

std::string media_type(const HttpMessage& message) {
  const std::string* type = message.header("content-type");
  if (!type) return "";
  std::string out = type->substr(0, type->find(';'));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

using Fields = std::vector<std::pair<std::string, std::string>>;

// A JSON object's members as text: strings as they are, numbers as written (12.5 -> "12.5").
// A JSON object of strings and numbers. A name given twice is refused: parsers disagree on
// which value wins, so the payload would mean different transfers to different readers.
bool json_fields(const std::string& body, Fields* out, std::string* why) {
  std::vector<std::string> names;
  std::string repeated;
  const auto note_name = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& key) {
    if (depth == 1 && event == nlohmann::json::parse_event_t::key) {
      const std::string& name = key.get_ref<const std::string&>();
      if (std::find(names.begin(), names.end(), name) != names.end()) repeated = name;
      names.push_back(name);
    }
    return true;
  };
  const nlohmann::json parsed = nlohmann::json::parse(body, note_name, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    *why = "the body is not a JSON object";
    return false;
  }
  if (!repeated.empty()) {
    *why = fmt::format("{} is given twice", repeated);
    return false;
  }
  for (const auto& [name, value] : parsed.items()) {
    if (value.is_string())
      out->emplace_back(name, value.get<std::string>());
    else if (value.is_number())
      out->emplace_back(name, value.dump());
    else {
      *why = fmt::format("{} is not a string or a number", name);
      return false;
    }
  }
  return true;
}

bool invalid(HttpReply* problem, std::string detail) {
  *problem = problem_reply(Problem::kInvalidField, detail);
  return false;
}

}  // namespace

bool transfer_from_fields(const Fields& fields, TransferInput* out, HttpReply* problem) {
  std::string amount;
  std::vector<std::string> seen;
  for (const auto& [name, value] : fields) {
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      return invalid(problem, fmt::format("{} is given twice", name));
    seen.push_back(name);
    std::string* into = name == "from"     ? &out->from
                        : name == "to"     ? &out->to
                        : name == "amount" ? &amount
                        : name == "token"  ? &out->token
                                           : nullptr;
    if (!into) return invalid(problem, fmt::format("unknown field {}", name));
    *into = value;
  }
  for (const char* name : {"from", "to", "amount"})
    if (std::find(seen.begin(), seen.end(), name) == seen.end())
      return invalid(problem, fmt::format("{} is missing", name));
  for (const std::string* account : {&out->from, &out->to})
    if (Status status = validate_account_name(*account); !status.is_ok())
      return invalid(problem, status.message());
  if (Status status = parse_amount(amount, false, &out->amount_minor); !status.is_ok())
    return invalid(problem, fmt::format("amount {}: {}", amount, status.message()));
  if (out->token.size() > 64) return invalid(problem, "token is longer than 64 characters");
  return true;
}

bool parse_idempotency_key(std::string_view value, std::string* key, std::string* why) {
  std::string text;
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
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
      text.push_back(value[i]);
    }
  } else if (bare_token(value)) {
    text = std::string(value);
  } else {
    *why = "it is neither a \"string\" nor a token";
    return false;
  }
  if (Status status = validate_biz_seq(text); !status.is_ok()) {
    *why = fmt::format("{} (as a transfer's id)", status.message());
    return false;
  }
  *key = std::move(text);
  return true;
}

bool parse_form(std::string_view body, Fields* out) {
  out->clear();
  for (size_t start = 0; start < body.size();) {
    const size_t end = std::min(body.find('&', start), body.size());
    const std::string_view pair = body.substr(start, end - start);
    const size_t equals = pair.find('=');
    std::string name, value;
    if (equals == std::string_view::npos || !url_decode(pair.substr(0, equals), &name) ||
        !url_decode(pair.substr(equals + 1), &value) || name.empty())
      return false;
    out->emplace_back(std::move(name), std::move(value));
    start = end + 1;
  }
  return true;
}

bool read_transfer_input(const HttpMessage& message, TransferInput* out, HttpReply* problem) {
  if (message.body_too_large) {
    *problem = problem_reply(Problem::kPayloadTooLarge, "the body is too large");
    return false;
  }
  if (const std::string* header = message.header("idempotency-key")) {
    std::string key, why;
    if (!parse_idempotency_key(*header, &key, &why)) {
      *problem = problem_reply(Problem::kInvalidIdempotencyKey, "Idempotency-Key: " + why);
      return false;
    }
    out->key = std::move(key);
  }
  const std::string type = media_type(message);
  const bool json = type == "application/json";
  if (!json && type != "application/x-www-form-urlencoded") {
    *problem = problem_reply(
        Problem::kUnsupportedMediaType,
        fmt::format("Content-Type {} is not JSON or a form", type.empty() ? "(none)" : type));
    return false;
  }
  Fields fields;
  std::string why = "the body is not a form of key=value pairs";
  if (!(json ? json_fields(message.body, &fields, &why) : parse_form(message.body, &fields))) {
    *problem = problem_reply(Problem::kMalformedBody, why);
    return false;
  }
  return transfer_from_fields(fields, out, problem);
}

}  // namespace idemlab
