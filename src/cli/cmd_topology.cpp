// `idemlab topology`: how idemlab reads the servers a URL names (db/topology.h): what they are to
// each other, each one, and which of them a connection uses. For an operator checking a URL
// before pointing a service at it, and for scripts that spread processes over a cluster as
// idemlab spreads its connections (scripts/race: --url-for-turn). Connects to nothing.
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/errors.h"
#include "db/guard_stores.h"
#include "db/locator.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct TopologyOptions {
  std::string db = "idemlab.db";
  std::string guards;  // --redis or --locks
  std::optional<int64_t> url_for_turn;
  bool json = false;
};

// The servers a URL names, as HOST:PORT or a socket: a SQLite ledger is its file; a server URL
// that names no host, the client library's default.
std::vector<std::string> members_of(const Topology& topology, const std::string& file) {
  if (!topology.names.empty()) return topology.names;
  return {file.empty() ? "the client library's default socket" : file};
}

// What a connection does on this topology, in a sentence.
std::string rule_text(const Topology& topology) {
  switch (topology.kind) {
    case TopologyKind::kCandidates:
      return "each connection tries them in turn and keeps the first that gives the session "
             "asked; after a failover, a new connection finds the new primary";
    case TopologyKind::kCluster:
      if (topology.pinned > 0) return fmt::format("every connection uses node {}", topology.pinned);
      return fmt::format(
          "connection N uses node (N mod {}) + 1: serve's requests and consume's deliveries "
          "take the nodes in turn, a one-attempt command uses node 1; a node that cannot be "
          "reached gives its turn to the next",
          topology.members());
    case TopologyKind::kSentinels:
      return "each connection asks the Sentinels for the primary and checks it answers as one";
    case TopologyKind::kEnsemble:
      return "the client library follows the ensemble";
    case TopologyKind::kServer:
      break;
  }
  return "every connection goes to it";
}

nlohmann::ordered_json topology_json(const std::string& shown, const Topology& topology,
                                     const std::vector<std::string>& members) {
  return {{"url", shown},
          {"topology", topology_kind_name(topology.kind)},
          {"text", topology_text(topology)},
          {"members", members},
          {"rule", rule_text(topology)}};
}

void print_topology(std::string_view what, const std::string& shown, const Topology& topology,
                    const std::vector<std::string>& members) {
  fmt::print("{}: {}\n  {}\n", what, topology_text(topology), shown);
  for (size_t i = 0; i < members.size() && members.size() > 1; ++i)
    fmt::print("  {}. {}\n", i + 1, members[i]);
  fmt::print("{}", wrap(rule_text(topology), 2));
}

ExitCode run_topology(const TopologyOptions& options) {
  Locator ledger;
  throw_if_error(parse_locator(options.db, &ledger));
  if (options.url_for_turn) {
    const int member =
        member_for_turn(ledger.topology, static_cast<uint64_t>(*options.url_for_turn));
    fmt::print("{}\n", url_for_member(options.db, ledger, member));
    return ExitCode::kOk;
  }
  Topology guards;
  if (!options.guards.empty())
    throw_if_error(read_guard_store_url(options.guards, &guards).status());
  if (options.json) {
    nlohmann::ordered_json out{{"ledger", topology_json(ledger.shown, ledger.topology,
                                                        members_of(ledger.topology, ledger.path))}};
    if (!options.guards.empty())
      out["guards"] = topology_json(redact_locator(options.guards), guards, members_of(guards, ""));
    print_json(out);
    return ExitCode::kOk;
  }
  print_topology("ledger", ledger.shown, ledger.topology, members_of(ledger.topology, ledger.path));
  if (!options.guards.empty())
    print_topology("tokens and locks", redact_locator(options.guards), guards,
                   members_of(guards, ""));
  return ExitCode::kOk;
}

}  // namespace

void register_topology(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<TopologyOptions>();
  CLI::App* command = app.add_subcommand(
      "topology", "what a URL's servers are to each other, and which one a connection uses");
  add_db_option(command, &options->db);
  command
      ->add_option("--guards", options->guards,
                   "a store of tokens and locks too: redis://..., redis-sentinel://..., "
                   "zookeeper://... or etcd://...")
      ->envname("IDEMLAB_REDIS");
  command
      ->add_option("--url-for-turn", options->url_for_turn,
                   "print only the --db URL connection number N (from 0) uses, as given "
                   "(password included): on a cluster, with node= added")
      ->check(whole_number(0, limits::kMaxSeed));
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_topology(*options); });
}

}  // namespace idemlab
