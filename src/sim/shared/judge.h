// The verdicts on one request, from the journal and the answers its client got. simulate,
// compare and explore all count these; none of them takes a strategy's word for anything.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace idemlab {

struct RequestFacts {
  uint32_t pairs = 0;                   // debit entries the journal holds for the request
  bool told_success = false;            // some answer claimed the money moved
  bool definitive = false;              // some answer was definitive
  bool inconsistent = false;            // two definitive answers disagreed
  bool gave_up_on_in_progress = false;  // the client's last answer was in_progress
};

// A request that moved no money is in exactly one of never_moved, stuck, refused and gave_up.
struct RequestVerdicts {
  bool moved_twice_or_more = false;
  bool never_moved = false;        // told success, nothing moved
  bool stuck = false;              // nothing moved; the client gave up on in_progress
  bool unknown_to_client = false;  // moved; the client never got a final answer
  bool refused = false;            // nothing moved; a definitive refusal
  bool gave_up = false;            // nothing moved; the client gave up with no final answer
  bool inconsistent_answers = false;
};

RequestVerdicts judge(const RequestFacts& facts);

// Whether `verdicts` counts the verdict named `name` (its JSON key, e.g. "refused").
bool has_verdict(const RequestVerdicts& verdicts, std::string_view name);

// The names of the verdicts that break a guarantee (explore's invariants), in a fixed order.
std::vector<std::string_view> broken_invariants(const RequestVerdicts& verdicts);

}  // namespace idemlab
