// What a POST /transfers carries, read before anything is opened: the Idempotency-Key header,
// as draft-ietf-httpapi-idempotency-key-header-07 writes it (a structured-field string, one
// value) or as many clients send it (a bare token), and a body that is a JSON object or a
// form with exactly the transfer's fields. It is read into the front door's RequestText, which
// checks the values as every transport's are checked; what cannot be read is answered here
// with the problem that names it. Nothing is written.
#pragma once

#include <string>
#include <string_view>

#include "attempt/front_door.h"
#include "attempt/request_fields.h"
#include "http/listener.h"

namespace idemlab {

// Reads the header's value: "..." with \" and \\ escapes, or a bare token; the key is then a
// biz_seq (1 to 64 printable characters, no spaces). False, with why (naming the key as
// `field`), when it is neither.
bool parse_idempotency_key(std::string_view value, std::string* key, std::string* why,
                           std::string_view field = "Idempotency-Key");

// The body's fields, by its Content-Type (JSON or a form); false with the problem otherwise.
bool read_body_fields(const HttpMessage& message, RequestFields* out, HttpReply* problem);

// Exactly from, to and amount (and token), each once, into `out`'s fields.
bool transfer_from_fields(const RequestFields& fields, RequestText* out, HttpReply* problem);

// The key (none when the header is absent; two headers are refused) and the transfer.
bool read_transfer_input(const HttpMessage& message, RequestText* out, HttpReply* problem);

}  // namespace idemlab
