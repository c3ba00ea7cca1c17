// Values a client must not guess (tokens, the payment page's form ids, ids of transfers sent
// without a key): drawn from the system's entropy, shared by the server's threads.
#pragma once

#include <cstdint>
#include <string>

namespace idemlab {

uint64_t secret_word();
// `digits` hexadecimal digits (at most 16).
std::string secret_hex(int digits);

}  // namespace idemlab
