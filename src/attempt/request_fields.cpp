// Reading a request's fields off a JSON object or a form, values as written.
#include "attempt/request_fields.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/quote.h"

namespace idemlab {

namespace {

// nlohmann's SAX events for the members of one flat object: strings and numbers as written.
// (An integer is exact as parsed; a fraction, an exponent or a number past 64 bits arrives
// with its text.)
class FlatObject final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit FlatObject(RequestFields* out) : out_(out) {}
  const std::string& why() const { return why_; }

  bool null() override { return value_kind("null"); }
  bool boolean(bool) override { return value_kind("a boolean"); }
  bool number_integer(number_integer_t value) override { return value_text(std::to_string(value)); }
  bool number_unsigned(number_unsigned_t value) override {
    return value_text(std::to_string(value));
  }
  bool number_float(number_float_t, const string_t& text) override { return value_text(text); }
  bool string(string_t& value) override { return value_text(value); }
  bool binary(binary_t&) override { return value_kind("binary"); }
  bool start_object(std::size_t) override {
    if (depth_++ == 0) return true;
    return value_kind("an object");
  }
  bool end_object() override { return --depth_ >= 0; }
  bool start_array(std::size_t) override {
    return depth_ == 0 ? fail("the body is not a JSON object") : value_kind("an array");
  }
  bool end_array() override { return true; }
  bool key(string_t& name) override {
    name_ = name;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return fail("the body is not a JSON object");
  }

 private:
  bool value_text(const std::string& text) {
    if (depth_ != 1) return fail("the body is not a JSON object");
    out_->emplace_back(name_, text);
    return true;
  }
  bool value_kind(std::string_view kind) {
    if (depth_ != 1) return fail("the body is not a JSON object");
    return fail(fmt::format("{} is {}, not a string or a number", in_quotes(name_), kind));
  }
  bool fail(std::string why) {
    if (why_.empty()) why_ = std::move(why);
    return false;
  }

  RequestFields* out_;
  std::string name_;
  std::string why_;
  int depth_ = 0;
};

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

}  // namespace

bool read_json_fields(std::string_view body, RequestFields* out, std::string* why) {
  out->clear();
  FlatObject handler(out);
  const bool parsed = nlohmann::json::sax_parse(body, &handler);
  if (parsed) return true;
  *why = handler.why().empty() ? "the body is not a JSON object" : handler.why();
  return false;
}

bool read_form_fields(std::string_view body, RequestFields* out, std::string* why) {
  out->clear();
  for (size_t start = 0; start < body.size();) {
    const size_t end = std::min(body.find('&', start), body.size());
    const std::string_view pair = body.substr(start, end - start);
    const size_t equals = pair.find('=');
    std::string name, value;
    if (equals == std::string_view::npos || !url_decode(pair.substr(0, equals), &name) ||
        !url_decode(pair.substr(equals + 1), &value) || name.empty()) {
      *why = fmt::format("{} is not key=value (the body is a form of key=value pairs)",
                         in_quotes(pair));
      return false;
    }
    out->emplace_back(std::move(name), std::move(value));
    start = end + 1;
  }
  return true;
}

bool pick_fields(const RequestFields& fields, std::span<const std::string_view> names,
                 std::vector<std::string>* values, std::vector<bool>* given, std::string* why) {
  values->assign(names.size(), "");
  given->assign(names.size(), false);
  for (const auto& [name, value] : fields) {
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end()) {
      *why =
          fmt::format("unknown field {} (the fields: {})", in_quotes(name), fmt::join(names, ", "));
      return false;
    }
    const size_t index = static_cast<size_t>(found - names.begin());
    if ((*given)[index]) {
      *why = fmt::format("{} is given twice", name);
      return false;
    }
    (*given)[index] = true;
    (*values)[index] = value;
  }
  return true;
}

}  // namespace idemlab
