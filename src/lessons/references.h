// The five articles idemlab follows, cited as 000 to 004 with their sections ("000 §5.6"): the
// one table of who wrote them and where, for `lesson --list`, the man page and the docs. A
// clone or the package does not hold them; this says where to find each.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace idemlab {

struct Reference {
  std::string_view number;  // "000"
  std::string_view title;   // as published, in Chinese
  std::string_view english;
  std::string_view author;  // as the article names its author; "" when it names none
  std::string_view where;   // where it was published, and when, if it says
  std::string_view url;     // "" when the copy names none
};

std::span<const Reference> references();

// One line for a person: "如何设计幂等 (How to design idempotency); study notes ...: URL",
// the author named when the article names one.
std::string reference_text(const Reference& ref);

}  // namespace idemlab
