// What serve reads from a request: the Idempotency-Key header (a structured-field string, or a
// bare token, once), and a transfer's fields from JSON or a form, refusing what is ambiguous;
// the values go to the front door as they were written.
#include <doctest/doctest.h>

#include "http/transfer_input.h"

namespace idemlab {

namespace {

std::string key_of(std::string_view header) {
  std::string key, why;
  return parse_idempotency_key(header, &key, &why) ? key : "refused: " + why;
}

HttpMessage post(std::string type, std::string body) {
  HttpMessage message;
  message.method = "POST";
  message.path = "/transfers";
  message.headers.emplace("content-type", std::move(type));
  message.body = std::move(body);
  return message;
}

}  // namespace

TEST_CASE("Idempotency-Key: a structured-field string, or a bare token") {
  CHECK(key_of("\"k1\"") == "k1");
  CHECK(key_of("\"a\\\"b\"") == "a\"b");
  CHECK(key_of("8e03978e-40d5-43e8-bc93-6894a57f9324") == "8e03978e-40d5-43e8-bc93-6894a57f9324");
  CHECK(key_of("k1") == "k1");
  for (const char* refused :
       {"12", "-3.5", "?1", ":aGk=:", "(a b)", "\"a\";p=1", "\"open", "a b", "\"bad\\q\"", ""})
    CHECK_MESSAGE(key_of(refused).starts_with("refused: "), refused);
  CHECK(key_of("") == "refused: Idempotency-Key is empty");
  CHECK(key_of("\"\"") == "refused: Idempotency-Key is empty");
  CHECK(key_of("\"" + std::string(64, 'k') + "\"") == std::string(64, 'k'));
  CHECK(key_of("\"" + std::string(65, 'k') + "\"").starts_with("refused: "));
}

TEST_CASE("two Idempotency-Key headers are one list, and refused") {
  HttpMessage message = post("application/x-www-form-urlencoded", "from=a&to=b&amount=1");
  message.headers.emplace("idempotency-key", "k1");
  message.headers.emplace("idempotency-key", "k2");
  RequestText text;
  HttpReply problem;
  CHECK_FALSE(read_transfer_input(message, &text, &problem));
  CHECK(problem.status == 400);
  CHECK(problem.body.find("invalid-idempotency-key") != std::string::npos);
}

TEST_CASE("a form: percent-decoded pairs, or refused") {
  RequestFields fields;
  std::string why;
  REQUIRE(read_form_fields("from=alice&to=b%20b&amount=1.00", &fields, &why));
  CHECK(fields == RequestFields{{"from", "alice"}, {"to", "b b"}, {"amount", "1.00"}});
  CHECK_FALSE(read_form_fields("a=%zz", &fields, &why));
}

TEST_CASE("a JSON transfer: a name given twice or a field unknown is refused") {
  RequestText text;
  HttpReply problem;
  REQUIRE(read_transfer_input(
      post("application/json", R"({"from":"alice","to":"bob","amount":"2.50"})"), &text, &problem));
  CHECK(text.from == "alice");
  CHECK(text.amount == "2.50");
  CHECK_FALSE(text.key.has_value());
  for (const char* body : {R"({"from":"alice","from":"carol","to":"bob","amount":"1"})",
                           R"({"from":"alice","to":"bob","amount":"1","x":1})",
                           R"({"from":"alice","to":"bob","amount":true})", "[]", "{"}) {
    RequestText refused;
    CHECK_MESSAGE(!read_transfer_input(post("application/json", body), &refused, &problem), body);
    CHECK(problem.status == 400);
  }
}

TEST_CASE("a JSON number reaches the front door as it was written") {
  for (const auto& [json, text] : std::vector<std::pair<std::string, std::string>>{
           {"12.50", "12.50"},
           {"1e2", "1e2"},
           {"7", "7"},
           {"123456789012345678901.5", "123456789012345678901.5"}}) {
    RequestText read;
    HttpReply problem;
    REQUIRE(read_transfer_input(
        post("application/json", R"({"from":"a","to":"b","amount":)" + json + "}"), &read,
        &problem));
    CHECK(read.amount == text);
  }
}

}  // namespace idemlab
