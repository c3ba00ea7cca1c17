// A flat JSON object as text, with nlohmann's own escaping for any string that needs one.
#include "http/json_text.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace idemlab {

namespace {

// A byte a JSON string holds as it is: printable ASCII other than the quote and the backslash.
bool plain(char c) {
  return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

// Appends `text` as a JSON string, as nlohmann writes it.
void append_json_string(std::string* out, std::string_view text) {
  if (std::all_of(text.begin(), text.end(), plain)) {
    out->push_back('"');
    out->append(text);
    out->push_back('"');
    return;
  }
  // Escapes, multi-byte characters and broken UTF-8: written by the library that writes every
  // other body, so that both agree on each byte.
  *out += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

void JsonObjectText::key(std::string_view name) {
  if (text_.size() > 1) text_.push_back(',');
  append_json_string(&text_, name);
  text_.push_back(':');
}

JsonObjectText& JsonObjectText::string(std::string_view key_name, std::string_view value) {
  key(key_name);
  append_json_string(&text_, value);
  return *this;
}

JsonObjectText& JsonObjectText::null(std::string_view key_name) {
  key(key_name);
  text_ += "null";
  return *this;
}

std::string JsonObjectText::body() && {
  text_ += "}\n";
  return std::move(text_);
}

}  // namespace idemlab
