// A request's fields as a transport received them, before any check of their values: a JSON
// object (an HTTP body, a queue message) or a form (an HTTP body, `idemlab http --data`). Both
// readers keep each value as it was written: a JSON number is its text ("12.50" stays 12.50,
// 1e2 stays 1e2), so the same decimal rules hold whichever way an amount arrives, and a name
// given twice is refused, since parsers disagree on which value wins.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idemlab {

using RequestFields = std::vector<std::pair<std::string, std::string>>;

// A JSON object of strings and numbers. False, with why, when the body is anything else.
bool read_json_fields(std::string_view body, RequestFields* out, std::string* why);

// An application/x-www-form-urlencoded body: key=value pairs joined by &, %-escapes and + for
// a space. False, with why, when a pair is not key=value or holds a bad escape.
bool read_form_fields(std::string_view body, RequestFields* out, std::string* why);

// Each of `names` at most once and nothing else: false, with why ("unknown field x", "amount is
// given twice"), when not. `values[i]` gets names[i]'s value; `given[i]` whether it came.
bool pick_fields(const RequestFields& fields, std::span<const std::string_view> names,
                 std::vector<std::string>* values, std::vector<bool>* given, std::string* why);

}  // namespace idemlab
