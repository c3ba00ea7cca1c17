// Tests for core/base64: RFC 4648's test vectors, both ways, and text that is not base64.
#include <doctest/doctest.h>

#include "core/base64.h"

using namespace idemlab;

TEST_CASE("base64 encodes and decodes RFC 4648's vectors, and refuses what is not base64") {
  const std::pair<const char*, const char*> kVectors[] = {{"", ""},
                                                          {"f", "Zg=="},
                                                          {"fo", "Zm8="},
                                                          {"foo", "Zm9v"},
                                                          {"foob", "Zm9vYg=="},
                                                          {"fooba", "Zm9vYmE="},
                                                          {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : kVectors) {
    CHECK(base64_encode(plain) == encoded);
    CHECK(base64_decode(encoded) == std::optional<std::string>(plain));
  }
  CHECK(base64_encode(std::string("\xff\x00\x10", 3)) == "/wAQ");
  for (const char* bad : {"Zg=", "Z===", "Zm9v!A==", "Zg==Zg=="})
    CHECK_MESSAGE(!base64_decode(bad), bad);
}
