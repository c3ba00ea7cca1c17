// The pitfalls of a queue consumer: not a guard left out of a strategy, but a choice of the
// consumer around it. `idemlab consume` takes each as an option, `explain` lists them, and the
// audit names each from the consumer's delivery log.
#pragma once

#include <span>
#include <string_view>

namespace idemlab {

struct ConsumerPitfall {
  std::string_view name;        // e.g. "ack-on-receipt"
  std::string_view option;      // the consume option that asks for it
  std::string_view reference;   // article and section
  std::string_view goes_wrong;  // what then happens
  std::string_view shown_by;    // a command that shows it, after "idemlab"
  std::string_view audit_kind;  // the audit's violation that names it
};

std::span<const ConsumerPitfall> consumer_pitfalls();

}  // namespace idemlab
