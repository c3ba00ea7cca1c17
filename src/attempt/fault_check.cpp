// Holding a command's faults to the surface it is.
#include "attempt/fault_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace idemlab {

namespace {

bool takes(Surface surface, FaultKind kind) {
  return (fault_info(kind).surfaces & surface_bit(surface)) != 0;
}

// Where faults are drawn per request from a seed, so that p= and nth= aim them.
bool draws(Surface surface) {
  return surface == Surface::kServe || surface == Surface::kConsume ||
         surface == Surface::kSimulate;
}

std::string_view surface_words(Surface surface) {
  switch (surface) {
    case Surface::kOneAttempt:
      return "one attempt";
    case Surface::kHttp:
      return "idemlab http";
    case Surface::kServe:
      return "serve";
    case Surface::kConsume:
      return "consume";
    case Surface::kLimit:
      return "limit";
    case Surface::kSimulate:
      break;
  }
  return "a simulation";
}

bool wire(FaultKind kind) {
  return kind == FaultKind::kRequestLost || kind == FaultKind::kResponseLost;
}

Status check_kind(Surface surface, const FaultSpec& fault) {
  if (takes(surface, fault.kind)) return Status::ok();
  if (takes(Surface::kSimulate, fault.kind) && surface == Surface::kOneAttempt)
    return Status::usage(
        fmt::format("fault {} needs many requests; use it with: idemlab simulate --fault {}",
                    fault.name(), fault.text));
  return Status::usage(fmt::format("fault {}: {} takes {}", fault.text, surface_words(surface),
                                   fault_names(surface)));
}

Status check_aim(Surface surface, const FaultSpec& fault) {
  if (!draws(surface) && (fault.nth != 0 || fault.probability != 1.0))
    return Status::usage(
        fmt::format("fault {}: p= and nth= aim faults among many requests; {} takes neither",
                    fault.name(), surface_words(surface)));
  if (surface == Surface::kSimulate && !fault.gate.empty())
    return Status::usage(
        fmt::format("fault {}: gate= is for attempts that are processes of their own; a "
                    "simulation's twins meet in virtual time without one",
                    fault.text));
  return Status::ok();
}

// One attempt at a time (not a simulation, which draws a crash's step from its seed).
Status check_one_attempt_shape(Surface surface, const FaultSpec& fault,
                               const std::vector<FaultSpec>& faults, const Strategy* strategy) {
  if (fault.kind == FaultKind::kCrash && fault.step.empty() && fault.phase == Phase::kNone)
    return Status::usage(
        fmt::format("fault crash needs after=STEP outside a simulation (steps: idemlab explain {})",
                    strategy ? strategy->info().name : "STRATEGY"));
  if (draws(surface)) return Status::ok();
  for (const FaultSpec& other : faults) {
    if (&other == &fault) break;
    if (other.kind == fault.kind && !wire(fault.kind))
      return Status::usage(fmt::format("one attempt takes one {} fault", fault.name()));
    if (wire(other.kind) && wire(fault.kind))
      return Status::usage(
          fmt::format("faults {} and {}: one request is lost once, before the server or after it",
                      other.text, fault.text));
  }
  return Status::ok();
}

// In a simulation the strategy may be any: a step must be one some strategy reaches.
Status check_any_strategy_step(const FaultSpec& fault) {
  for (const Strategy* strategy : all_strategies()) {
    if (reaches_step(strategy->info(), Pitfall::kNone, fault.step)) return Status::ok();
    for (const PitfallInfo& pitfall : strategy->info().pitfalls)
      if (reaches_step(strategy->info(), pitfall.id, fault.step)) return Status::ok();
  }
  return Status::usage(
      fmt::format("fault {}: no strategy has a step '{}' (see: idemlab explain STRATEGY)",
                  fault.name(), fault.step));
}

}  // namespace

Status check_faults(Surface surface, const std::vector<FaultSpec>& faults, const Strategy* strategy,
                    Pitfall pitfall) {
  for (const FaultSpec& fault : faults) {
    RETURN_IF_ERROR(check_kind(surface, fault));
    RETURN_IF_ERROR(check_aim(surface, fault));
    if (surface != Surface::kSimulate)
      RETURN_IF_ERROR(check_one_attempt_shape(surface, fault, faults, strategy));
    if (strategy)
      RETURN_IF_ERROR(check_fault_steps(fault, strategy->info(), pitfall));
    else if (!fault.step.empty())
      RETURN_IF_ERROR(check_any_strategy_step(fault));
  }
  return Status::ok();
}

Status check_fault_steps(const FaultSpec& fault, const StrategyInfo& info, Pitfall pitfall) {
  if (fault.step.empty() || reaches_step(info, pitfall, fault.step))
    return Status::ok();  // phases too
  return Status::usage(fmt::format(
      "fault {}: {}{} never reaches step '{}'; the steps it reaches: {}", fault.name(), info.name,
      pitfall_argument(pitfall), fault.step, fmt::join(reachable_steps(info, pitfall), ", ")));
}

std::vector<std::string_view> fault_surfaces(const FaultInfo& fault) {
  static constexpr std::pair<Surface, std::string_view> kNames[] = {
      {Surface::kOneAttempt, "one attempt"},
      {Surface::kHttp, "http"},
      {Surface::kServe, "serve"},
      {Surface::kConsume, "consume"},
      {Surface::kLimit, "limit"},
      {Surface::kSimulate, "simulate"}};
  std::vector<std::string_view> out;
  for (const auto& [surface, name] : kNames)
    if (takes(surface, fault.kind)) out.push_back(name);
  return out;
}

std::string fault_names(Surface surface) {
  std::vector<std::string_view> names;
  for (const FaultInfo& fault : fault_table())
    if (takes(surface, fault.kind)) names.push_back(fault.name);
  if (names.size() < 2) return names.empty() ? "no fault" : std::string(names[0]);
  const std::string_view last = names.back();
  names.pop_back();
  return fmt::format("{} and {}", fmt::join(names, ", "), last);
}

std::string fault_help(Surface surface) {
  std::vector<std::string_view> syntax;
  for (const FaultInfo& fault : fault_table())
    if (takes(surface, fault.kind)) syntax.push_back(fault.syntax);
  std::string help = fmt::format("{}", fmt::join(syntax, " | "));
  if (surface == Surface::kSimulate) return help + " (idemlab faults says each); repeatable";
  if (draws(surface)) help += ", each with p= or nth= per request; repeatable";
  if (surface == Surface::kOneAttempt || surface == Surface::kServe)
    help += "; slow takes gate=DIR";
  return help;
}

}  // namespace idemlab
