// Pitfall names: the stable spelling scripts and reports use.
#include "strategies/pitfall.h"

#include <array>

namespace idemlab {

namespace {

constexpr std::array<std::string_view, 14> kNames{
    "",
    "no-unique-index",
    "upsert-carries-on",
    "no-precondition",
    "separate-transactions",
    "key-without-source",
    "check-then-delete",
    "check-outside-lock",
    "aba",
    "no-owner-check",
    "ttl-too-short",
    "ttl-too-long",
    "success-on-duplicate",
    "missing-key",
};

}  // namespace

std::string_view pitfall_name(Pitfall pitfall) {
  return kNames[static_cast<size_t>(pitfall)];
}

std::optional<Pitfall> pitfall_from_name(std::string_view name) {
  for (size_t i = 1; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<Pitfall>(i);
  return std::nullopt;
}

PitfallInfo success_on_duplicate_pitfall(std::vector<std::string_view> skips) {
  return PitfallInfo{
      .id = Pitfall::kSuccessOnDuplicate,
      .reference =
          "000 and 004, §5.1, 5.2, 5.4 and 5.8 (\"a repeat: return success directly\"); "
          "004 §1 (idempotence returns the same answer)",
      .removes =
          "the look at what the first attempt did: a detected repeat (a conflict, a "
          "lock taken, a row found) answers \"applied\" without reading the stored answer",
      .goes_wrong =
          "a repeat of a request that was rejected, crashed or is still running is told "
          "it succeeded: the client believes money moved that never did, and two "
          "copies of one request get different answers",
      .exposed_by =
          "double-submit with an overdraw (insufficient funds), or a crash after the "
          "guard was written",
      .shown_by = "simulate --scenario lie-on-duplicate",
      .verdict = "never_moved",
      .skips = std::move(skips),
  };
}

PitfallInfo missing_key_pitfall() {
  return PitfallInfo{
      .id = Pitfall::kMissingKey,
      .reference =
          "002, \"a new serial-number field\": NULL means unknown, and unknowns never "
          "conflict in a unique index",
      .removes = "the refusal of a request that carries no key (rejected: missing_key)",
      .goes_wrong =
          "the flow row is written with a NULL key, which conflicts with nothing: every "
          "delivery of the request moves the money again",
      .exposed_by = "no-key (the client leaves the key out) with a redelivery",
      .shown_by = "simulate --scenario missing-key",
      .verdict = "moved_twice_or_more",
  };
}

std::string pitfall_argument(Pitfall pitfall) {
  if (pitfall == Pitfall::kNone) return "";
  return " --pitfall=" + std::string(pitfall_name(pitfall));
}

}  // namespace idemlab
