// The references' table.
#include "lessons/references.h"

#include <fmt/format.h>

#include <array>

namespace idemlab {

std::span<const Reference> references() {
  static constexpr std::array kReferences{
      Reference{"000", "如何设计幂等", "How to design idempotency", "",
                "study notes kept as Markdown, with a sibling page on Redis distributed locks", ""},
      Reference{"001", "幂等与去重处理", "Idempotence and de-duplication", "gudaoxuri",
                "the book Microservices Architecture, on GitHub",
                "https://github.com/gudaoxuri/Microservices-Architecture"},
      Reference{"002", "幂等设计", "Idempotent design", "",
                "a blog post of 2024-08-19 (category: system optimisation)", ""},
      Reference{"003", "接口幂等性", "Idempotent interfaces in a lending platform's repayments",
                "jajian", "cnblogs, 2019", "https://www.cnblogs.com/jajian/p/10926681.html"},
      Reference{"004", "我们一起聊聊幂等设计", "Let's talk about idempotent design",
                "捡田螺的小男孩 (Tianluo)", "WeChat official account, 2022-01-04",
                "https://mp.weixin.qq.com/s/P3GVyHxrSLN4FV2xwnP71g"},
  };
  return kReferences;
}

std::string reference_text(const Reference& ref) {
  std::string out = fmt::format("{} ({})", ref.title, ref.english);
  if (!ref.author.empty()) out += fmt::format(", by {}", ref.author);
  out += fmt::format("; {}", ref.where);
  if (!ref.url.empty()) out += fmt::format(": {}", ref.url);
  return out;
}

}  // namespace idemlab
