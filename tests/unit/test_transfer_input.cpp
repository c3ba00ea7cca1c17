// What serve reads from a request: the Idempotency-Key header (a structured-field string, or a
// bare token), a form, and a transfer from JSON or a form, refusing what is ambiguous.
#include <doctest/doctest.h>

#include "http/transfer_input.h"

namespace idemlab {

namespace {

std::string key_of(std::string_view header) {
  std::string key, why;
  return parse_idempotency_key(header, &key, &why) ? key : "refused: " + why;
}

HttpMessage json_post(std::string body) {
  HttpMessage message;
  message.method = "POST";
  message.path = "/transfers";
  message.headers.emplace("content-type", "application/json");
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
  CHECK(key_of("\"" + std::string(64, 'k') + "\"") == std::string(64, 'k'));
  CHECK(key_of("\"" + std::string(65, 'k') + "\"").starts_with("refused: "));
}

TEST_CASE("a form: percent-decoded pairs, or refused") {
  std::vector<std::pair<std::string, std::string>> fields;
  REQUIRE(parse_form("from=alice&to=b%20b&amount=1.00", &fields));
  CHECK(fields == std::vector<std::pair<std::string, std::string>>{
                      {"from", "alice"}, {"to", "b b"}, {"amount", "1.00"}});
  fields.clear();
  CHECK_FALSE(parse_form("a=%zz", &fields));
}

TEST_CASE("a JSON transfer: a name given twice or a field unknown is refused, with nothing read") {
  TransferInput input;
  HttpReply problem;
  REQUIRE(read_transfer_input(json_post(R"({"from":"alice","to":"bob","amount":"2.50"})"), &input,
                              &problem));
  CHECK(input.from == "alice");
  CHECK(input.amount_minor == 250);
  for (const char* body : {R"({"from":"alice","from":"carol","to":"bob","amount":"1"})",
                           R"({"from":"alice","to":"bob","amount":"1","x":1})",
                           R"({"from":"alice","to":"bob","amount":"1.001"})",
                           R"({"from":"alice","to":"bob","amount":"-1"})", "[]", "{"}) {
    TransferInput refused;
    CHECK_MESSAGE(!read_transfer_input(json_post(body), &refused, &problem), body);
    CHECK(problem.status == 400);
  }
}

}  // namespace idemlab
