// A transfer as a message on the queue: a JSON object with the business request's identity
// (source and biz_seq) and its payload, written by `idemlab publish` and read by `consume`.
// Read into the front door's RequestText: its values are checked there, as a request's are on
// every transport; here only its shape (the five fields, each once, strings or numbers).
#pragma once

#include <string>

#include "attempt/front_door.h"

namespace idemlab {

std::string message_body(const TransferRequest& request);
// False, with why, when the body is not such an object (the consumer dead-letters it).
bool read_message_body(const std::string& body, RequestText* out, std::string* why);

}  // namespace idemlab
