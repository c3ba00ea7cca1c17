// `idemlab explore`: every interleaving of K concurrent duplicates, and the first that breaks.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.h"
#include "cli/errors.h"
#include "cli/sim_options.h"
#include "core/interrupt.h"
#include "core/limits.h"
#include "report/explore_view.h"
#include "report/sim_view.h"
#include "sim/explore/explore.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct ExploreOptions {
  std::string strategy;
  std::optional<std::string> pitfall;
  ExploreConfig config;
  bool json = false;
  std::string diagram;  // "mermaid" or "svg"
  bool sql = false;
  bool fail_on_violation = false;
  std::string db;                     // a server URL, or "" for SQLite
  std::string isolation;              // with db
  std::string redis;                  // token and lock-table: where tokens and locks go, or ""
  std::vector<std::string> topology;  // --topology, each part as written
  std::string failover;               // --failover: "guards" (bare) or "ledger"; "" for none
  bool replica_lag = false;           // --replica-lag: refused, naming --topology
};

// --failover into the config: of the guard store (bare) or of the ledger.
void choose_failover(ExploreOptions* options) {
  const std::string& of = options->failover;
  if (!of.empty() && of != "guards" && of != "ledger")
    throw_if_error(Status::usage(fmt::format(
        "--failover={}: give --failover (the guard store fails over) or --failover=ledger", of)));
  options->config.failover = of == "guards";
  options->config.ledger_failover = of == "ledger";
}

// ledger=galera: the simulator's cluster, whose appliers explore tries at every lag (so it takes
// no apply-ms), alone among the faults and topologies explore enumerates.
void choose_cluster(const SimTopology& topology, ExploreOptions* options) {
  if (topology.apply_ms_given)
    throw_if_error(Status::usage(
        "explore tries every applier lag (each commit applied at once, then 1 ms after it, "
        "then 2, ...): drop apply-ms="));
  if (!options->failover.empty() || topology.guards_replica)
    throw_if_error(Status::usage(
        "explore enumerates a Galera cluster's appliers or a failover, one at a time: drop "
        "--failover or ledger=galera"));
  options->config.galera_nodes = topology.nodes;
  options->config.causal_reads = topology.causal_reads;
  options->config.retry_autocommit = topology.retry_autocommit;
}

// --topology into the config: explore reads a lagging standby at every lag in turn, and keeps
// tokens and locks in a replicated store when --failover fails it over, or when the ledger
// fails over beside it; each part that would change nothing, or that explore does not
// enumerate, is refused with its reason.
void choose_topology(ExploreOptions* options) {
  choose_failover(options);
  const ExploreConfig& config = options->config;
  if (options->replica_lag)
    throw_if_error(Status::usage(
        "--replica-lag is a topology now: give --topology ledger=standby:reads=standby"));
  SimTopology topology;
  throw_if_error(parse_topologies(options->topology, &topology));
  if (topology.queue_dedups)
    throw_if_error(Status::usage(
        "--topology queue=jetstream: explore enumerates the interleavings of twins, not a "
        "queue's copies; simulate --topology queue=jetstream --fault republish runs them"));
  if (topology.galera()) choose_cluster(topology, options);
  if (topology.standby() && !topology.reads_on_standby && !config.ledger_failover)
    throw_if_error(Status::usage(
        "--topology ledger=standby changes nothing in explore without reads=standby or "
        "--failover=ledger"));
  if (topology.reads_on_standby && config.ledger_failover)
    throw_if_error(Status::usage(
        "explore fails the ledger over or reads its lagging standby, one at a time: drop "
        "reads=standby or --failover=ledger"));
  if (topology.ledger_lag_given || topology.guards_lag_given)
    throw_if_error(Status::usage(
        "explore tries every lag (a standby that applied none of the run's commits, then 1, "
        "2, ...; a failover that loses the write before it): drop lag-ms="));
  if (topology.guards_replica && options->failover.empty())
    throw_if_error(Status::usage(
        "--topology guards=replica changes nothing in explore without a failover: add "
        "--failover (the guard store fails over) or --failover=ledger (the ledger does, the "
        "store stays up)"));
  options->config.guards_apart = topology.guards_replica && config.ledger_failover;
  options->config.replica_lag = topology.reads_on_standby;
}

// A failover of the guard store, or a store kept apart, for a strategy that keeps no tokens or
// locks would change nothing: refused with the reason.
void check_guards_kept(const ExploreOptions& options) {
  if (find_strategy(options.strategy)->info().keeps_guards()) return;
  if (options.config.failover)
    throw_if_error(Status::usage(fmt::format(
        "--failover fails over the store that keeps tokens and locks apart from the ledger; {} "
        "keeps its guard in the ledger's transaction, so every interleaving would run as without "
        "it: explore token or lock-table with --failover, or fail the ledger over: "
        "--failover=ledger",
        options.strategy)));
  if (options.config.guards_apart)
    throw_if_error(Status::usage(fmt::format(
        "--topology guards=replica keeps tokens and locks apart from the ledger; {} keeps none",
        options.strategy)));
}

// --db and --isolation into the config: explore's own ledger is a scratch one, so --db takes
// only a server, where explore makes a scratch ledger of its own.
void choose_server(ExploreOptions* options) {
  choose_topology(options);
  ScratchServerChoice choice = scratch_server_choice("explore", options->db, options->isolation);
  options->config.isolation = choice.isolation;
  options->config.server = std::move(choice.server);
  options->config.redis = scratch_redis_choice(options->redis, {options->strategy});
  if (options->config.replica_lag && options->config.server)
    throw_if_error(Status::usage(
        "ledger=standby reads from a standby of the simulator's own SQLite ledger; on a "
        "server, read from a real standby: idemlab STRATEGY --read-db URL"));
  const ExploreConfig& config = options->config;
  if (config.failover && (config.server || config.redis))
    throw_if_error(Status::usage(
        "--failover fails over the simulator's own guard store beside a SQLite ledger; it takes "
        "neither --db nor --redis"));
  if (config.ledger_failover && config.server)
    throw_if_error(Status::usage(
        "--failover=ledger fails over the simulator's own SQLite ledger; on a server, fail a "
        "real standby over: scripts/servers postgres failover"));
  if (config.guards_apart && config.redis)
    throw_if_error(Status::usage(
        "--topology guards=replica and --redis are two stores for tokens and locks: give one"));
  if (config.galera_nodes > 0 && config.server)
    throw_if_error(Status::usage(
        "ledger=galera is the simulator's own cluster of SQLite nodes; on a real cluster, give "
        "the URL that names its nodes: explore --db mariadb://USER:PASS@H1:P1,H2:P2,H3:P3/DB"));
  if (config.galera_nodes > 0 && config.redis)
    throw_if_error(Status::usage(
        "explore keeps tokens and locks in the simulator's Galera cluster itself: drop --redis"));
  check_guards_kept(*options);
}

// --fail-on violation: a guarded strategy without --pitfall broke an invariant.
ExitCode explore_exit(const ExploreOptions& options, const ExploreResult& result) {
  const bool guarded = find_strategy(options.strategy)->info().guarded;
  if (options.fail_on_violation && guarded && result.pitfall == Pitfall::kNone &&
      result.breaking > 0)
    return ExitCode::kAuditFailed;
  return ExitCode::kOk;
}

// The command that runs this exploration again, every setting named: explore has no seed,
// so these are all it depends on.
std::string explore_command(const ExploreOptions& options, Pitfall pitfall) {
  const ExploreConfig& c = options.config;
  std::string out = fmt::format(
      "idemlab explore --strategy {}{} --duplicates {} --lock-ttl-ms {} --max-interleavings {}",
      options.strategy, pitfall_argument(pitfall), c.duplicates, c.lock_ttl_ms,
      c.max_interleavings);
  for (const auto& [on, flag] : {std::pair{c.crash, " --crash"},
                                 {c.overdraw, " --overdraw"},
                                 {c.unique_index, " --unique-index"},
                                 {c.all_orders, " --all-orders"},
                                 {c.failover, " --failover"},
                                 {c.ledger_failover, " --failover=ledger"},
                                 {c.guards_apart, " --topology guards=replica"},
                                 {c.replica_lag, " --topology ledger=standby:reads=standby"},
                                 {options.sql, " --sql"}})
    if (on) out += flag;
  if (c.galera_nodes > 0)
    out += fmt::format(" --topology ledger=galera:nodes={},sync-wait={},retry-autocommit={}",
                       c.galera_nodes, c.causal_reads ? 1 : 0, c.retry_autocommit ? 1 : 0);
  if (c.pick > 0) out += fmt::format(" --interleaving {}", c.pick);
  out += scratch_server_arguments({c.server, c.isolation});
  return out + scratch_redis_arguments(c.redis);
}

ExitCode run_explore(ExploreOptions& options) {
  choose_server(&options);
  if (options.config.unique_index && !find_strategy(options.strategy)->info().offers_unique_index)
    throw_if_error(Status::usage(fmt::format(
        "--unique-index is for select-for-update; {} keeps its own guard", options.strategy)));
  if (options.config.all_orders && !options.config.server)
    throw_if_error(Status::usage(
        "--all-orders is for explore --db: on SQLite a step is already a whole transaction"));
  if (options.json && !options.diagram.empty())
    throw_if_error(Status::usage(fmt::format(
        "--json and --format {} ask for two outputs: give one of them", options.diagram)));
  install_interrupt_handlers();
  ExploreResult result;
  const Strategy& strategy = *find_strategy(options.strategy);
  const Pitfall pitfall = pitfall_option(strategy.info(), options.pitfall);
  throw_if_error(explore(strategy, pitfall, options.config, &result));
  if (options.config.pick > 0 && result.picked_index == 0)
    throw_if_error(
        Status::usage(fmt::format("--interleaving {}: explore tried only {}", options.config.pick,
                                  count_of(result.interleavings, "interleaving"))));
  const ExploreView view{options.sql, options.config.all_orders, options.diagram};
  if (!options.diagram.empty())
    fmt::print("{}", explore_diagram(view, result));
  else if (options.json)
    print_json(explore_json(view, result));
  else
    fmt::print("{}{}", explore_text(view, result),
               reproduce_text(explore_command(options, pitfall)));
  return explore_exit(options, result);
}

// What a step is on each backend, and the exit codes.
std::string explore_footer() {
  return std::string(
      "On SQLite a step is one statement outside a transaction, or one whole write "
      "transaction: while an attempt holds SQLite's write lock, other writes wait and "
      "other reads see the same snapshot, so interleaving inside it would change "
      "nothing. On a server (--db) a step is one statement: a statement that waits for "
      "another attempt's row lock is parked, on the server's own word "
      "(pg_blocking_pids, SHOW ENGINE INNODB STATUS), and the others go on until the "
      "server lets it go. Two steps of different attempts that commute (a BEGIN, which "
      "takes no lock and no snapshot; at READ COMMITTED and REPEATABLE READ a plain "
      "read beside another plain read, or beside a write another attempt has not "
      "committed) leave the same rows in either order: one order is tried (--all-orders"
      " tries both).\n");
}

// --crash, --failover and --topology: the faults and topologies explore enumerates.
void add_fault_options(CLI::App* command, ExploreOptions* options) {
  command->add_flag("--crash", options->config.crash,
                    "also kill each attempt after each statement it reaches; a crashed run "
                    "ends with one late retry after the lock's TTL (breaks: stuck)");
  command
      ->add_option_function<std::string>(
          "--failover",
          [options](const std::string& of) { options->failover = of.empty() ? "guards" : of; },
          "token and lock-table: keep tokens and locks in a store with a replica, and fail it "
          "over right after each guard write in turn, in every interleaving (the replica never "
          "received that write); --failover=ledger: fail the ledger over right after each "
          "commit in turn (its standby never received that commit)")
      ->expected(0, 1)
      ->type_name("ledger");
  command->add_option(
      "--topology", options->topology,
      "ledger=standby:reads=standby: send the lookups outside the write "
      "transaction to the ledger's standby, and try every interleaving with it "
      "applying none of the run's commits that changed a row, then the first, and so on "
      "(SQLite); "
      "ledger=galera[:nodes=N,sync-wait=0|1,retry-autocommit=0|1]: each twin "
      "on the next node of the simulator's cluster, every interleaving tried "
      "with the appliers applying each commit at once, then 1 ms after it, and "
      "so on; guards=replica: with --failover, as --failover alone; with "
      "--failover=ledger, tokens and locks in a store that stays up");
  command->add_flag("--replica-lag", options->replica_lag)->group("");  // refused, named
}

}  // namespace

void register_explore(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<ExploreOptions>();
  CLI::App* command = app.add_subcommand(
      "explore", "every interleaving of K concurrent duplicates; the first that breaks");
  command->add_option("--strategy", options->strategy, "the strategy")
      ->required()
      ->check(CLI::IsMember(strategy_names()));
  add_pitfall_option(command, &options->pitfall);
  command->add_option("-k,--duplicates", options->config.duplicates, "concurrent duplicates (K)")
      ->check(whole_number(limits::kMinDuplicates, limits::kMaxDuplicates))
      ->capture_default_str();
  command
      ->add_option("--lock-ttl-ms", options->config.lock_ttl_ms,
                   "lock-table TTL; the clock advances 1 ms per statement")
      ->check(whole_number(1, limits::kMaxDurationMs))
      ->capture_default_str();
  command
      ->add_option("--max-interleavings", options->config.max_interleavings, "stop after this many")
      ->check(whole_number(1, limits::kMaxInterleavings))
      ->capture_default_str();
  add_fault_options(command, options.get());
  command->add_flag("--sql", options->sql, "add each statement's SQL to the timeline");
  command->add_flag("--unique-index", options->config.unique_index,
                    "select-for-update: insert the flow row under the unique index on (source, "
                    "biz_seq) too");
  command->add_flag("--all-orders", options->config.all_orders,
                    "with --db: try both orders of two steps that commute too (a BEGIN, a plain "
                    "read beside another attempt's uncommitted write); without it one is tried");
  command->add_flag("--overdraw", options->config.overdraw,
                    "the request asks for more than the payer holds: a rejection every repeat "
                    "must get again");
  command
      ->add_option_function<std::string>(
          "--format", [options](const std::string& format) { options->diagram = format; },
          "mermaid or svg: the shown interleaving as a sequence diagram")
      ->check(CLI::IsMember({"mermaid", "svg"}));
  command
      ->add_option("--interleaving", options->config.pick,
                   "show interleaving N (in the order they are tried) instead of the first "
                   "breaking one")
      ->check(whole_number(1, limits::kMaxInterleavings));
  add_scratch_server_options(command, "explore", &options->db, &options->isolation);
  add_scratch_redis_option(command, &options->redis);
  add_json_flag(command, &options->json);
  add_fail_on_option(command, &options->fail_on_violation);
  command->footer(explore_footer());
  command->callback([options, &result] { result.exit_code = run_explore(*options); });
}

}  // namespace idemlab
