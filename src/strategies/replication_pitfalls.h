// The pitfalls of replicated servers: not a guard left out of a strategy's code, but where its
// guard lives. The same code that is exactly once on one server moves money twice (or never)
// when its guard is read from a standby that lags, kept in a store that forgets at a failover,
// or trusted as a lock that can have two holders. `explain` lists each beside the strategies
// it reaches, with the fix; docs/replication.md has what the lab measured.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace idemlab {

// What one pitfall does to one strategy, guarded or with one of its --pitfall variants.
struct ReplicaEffect {
  std::string_view strategy;
  std::string_view effect;
};

struct ReplicationPitfall {
  std::string_view name;        // e.g. "stale-guard-read"
  std::string_view deployment;  // the topology and the options that place the guard there
  std::string_view reference;   // the references' deployment, and where they stop
  std::string_view goes_wrong;
  std::vector<ReplicaEffect> effects;
  std::string_view fix;
  std::string_view shown_by;    // the test that shows it on real servers
  std::string_view lesson;      // the lesson that shows it to a class (idemlab lesson NAME)
  std::string_view audit_kind;  // the audit's violation that names it
};

std::span<const ReplicationPitfall> replication_pitfalls();

}  // namespace idemlab
