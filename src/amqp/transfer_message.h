// A transfer as a message on the queue: a JSON object with the business request's identity
// (source and biz_seq) and its payload, written by `idemlab publish` and read by `consume`.
#pragma once

#include <string>

#include "attempt/direct.h"

namespace idemlab {

std::string message_body(const TransferRequest& request);
// False, with why, when the body is not such an object (the consumer drops it).
bool read_message_body(const std::string& body, TransferRequest* out, std::string* why);

}  // namespace idemlab
