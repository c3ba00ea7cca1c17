// Shared simulation options.
#include "cli/sim_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <array>

#include "attempt/fault_check.h"
#include "cli/errors.h"

namespace idemlab {

namespace {

// Whether any of `strategies` keeps tokens or locks (token, lock-table): what --redis and
// guards=replica change.
bool keeps_guards(const std::vector<std::string>& strategies) {
  return std::any_of(strategies.begin(), strategies.end(),
                     [](const auto& name) { return find_strategy(name)->info().keeps_guards(); });
}

}  // namespace

void add_sim_options(CLI::App* command, SimCliOptions* options) {
  command->add_option("--scenario", options->scenario,
                      "a built-in scenario (idemlab scenarios) or a scenario file");
  static constexpr std::array<const char*, 5> kHelp{
      "number of requests (default 1000)", "clients sending at once (default 8)",
      "seed of every random choice (default 1)", "lock-table TTL (default 1000)",
      "token strategy TTL (default 60000)"};
  const auto settings = sim_settings();
  options->settings.assign(settings.size(), std::nullopt);
  for (size_t i = 0; i < settings.size(); ++i)
    command->add_option(std::string(settings[i].option), options->settings[i], kHelp[i])
        ->check(whole_number(settings[i].low, settings[i].high));
  command->add_option("--fault", options->faults,
                      fault_help(Surface::kSimulate) + "; replaces the scenario's faults");
  command->add_option("--topology", options->topology,
                      std::string(kTopologyHelp) + "; replaces the scenario's topology");
  command->add_flag("--read-your-writes", options->read_your_writes,
                    "with reads on the ledger's standby: a read goes to the primary while the "
                    "standby has not applied every commit");
  command->add_flag("--fence", options->fence,
                    "lock-table: the ledger checks each lock grant's fence (a number the guard "
                    "store gives every grant, growing) in the money's transaction; needs the "
                    "locks apart from the ledger: --topology guards=replica|lease, or --redis");
  command->add_option("--retry", options->retry,
                      "attempts=5,timeout-ms=300,backoff=exp|constant,base-ms=50,cap-ms=2000,"
                      "jitter=full|equal|none,key=same|fresh,query=no|yes");
  command->add_option("--sources", options->sources,
                      "who sends the requests, in turn, e.g. api,batch: each numbers its own "
                      "(default api)");
  command
      ->add_option("--format", options->format,
                   "table, json, csv or md; mermaid or svg: a sequence diagram of a timeline "
                   "(simulate --timeline-request N)")
      ->check(CLI::IsMember({"table", "json", "csv", "md", "mermaid", "svg"}))
      ->capture_default_str();
  add_json_flag(command, &options->json);
  add_fail_on_option(command, &options->fail_on_violation);
}

void add_fail_on_option(CLI::App* command, bool* fail_on_violation) {
  command
      ->add_option_function<std::string>(
          "--fail-on", [fail_on_violation](const std::string&) { *fail_on_violation = true; },
          "violation: exit 7 when a guarded strategy without --pitfall breaks its promise "
          "(for CI scripts)")
      ->check(CLI::IsMember({"violation"}));
}

SimConfig build_config(const SimCliOptions& options) {
  SimConfig config;
  if (options.scenario) throw_if_error(load_scenario(*options.scenario, &config, nullptr));
  const auto settings = sim_settings();
  for (size_t i = 0; i < settings.size(); ++i)
    if (options.settings[i]) set_sim_setting(settings[i], *options.settings[i], &config);
  if (options.retry) {
    config.retry = RetryPolicy{};
    throw_if_error(parse_retry(*options.retry, &config.retry));
  }
  if (options.sources) throw_if_error(parse_sources(*options.sources, &config.sources));
  if (!options.faults.empty()) throw_if_error(parse_faults(options.faults, &config.faults));
  if (!options.topology.empty())
    throw_if_error(parse_topologies(options.topology, &config.topology));
  config.read_your_writes = options.read_your_writes;
  config.fence = options.fence;
  throw_if_error(check_faults(Surface::kSimulate, config.faults, nullptr, Pitfall::kNone));
  SimConfig resolved = config;  // what the run will make of it: refused here, before a run
  throw_if_error(resolve_topology(&resolved.topology, &resolved.faults, resolved.read_your_writes));
  return config;
}

Format output_format(const SimCliOptions& options) {
  if (options.json && options.format != "table" && options.format != "json")
    throw_if_error(Status::usage(fmt::format(
        "--json and --format {} ask for two outputs: give one of them", options.format)));
  if (options.json || options.format == "json") return Format::kJson;
  if (options.format == "csv") return Format::kCsv;
  if (options.format == "md") return Format::kMarkdown;
  if (options.format == "mermaid") return Format::kMermaid;
  if (options.format == "svg") return Format::kSvg;
  return Format::kTable;
}

std::string config_arguments(const SimConfig& config) {
  std::string out;
  if (!config.scenario.empty()) out += fmt::format(" --scenario {}", config.scenario);
  out += fmt::format(" --requests {} --seed {} --concurrency {} --retry {} --lock-ttl-ms {}",
                     config.requests, config.seed, config.concurrency, config.retry.changed_text(),
                     config.lock_ttl_ms);
  if (config.token_ttl_ms != SimConfig{}.token_ttl_ms)
    out += fmt::format(" --token-ttl-ms {}", config.token_ttl_ms);
  if (config.sources != SimConfig{}.sources)
    out += fmt::format(" --sources {}", fmt::join(config.sources, ","));
  for (const std::string& text : config.topology.texts) out += fmt::format(" --topology {}", text);
  for (const FaultSpec& fault : config.faults) out += fmt::format(" --fault {}", fault.text);
  if (config.read_your_writes) out += " --read-your-writes";
  if (config.fence) out += " --fence";
  return out;
}

std::function<void(size_t, size_t)> rows_reporter(std::string label) {
  auto report = progress_reporter(std::move(label), "rows");
  if (!report) return {};
  return [report](size_t done, size_t total) {
    report(static_cast<int64_t>(done), static_cast<int64_t>(total));
  };
}

std::function<void(int64_t, int64_t)> progress_reporter(std::string label, std::string unit) {
  if (!::isatty(STDERR_FILENO)) return {};
  return [label = std::move(label), unit = std::move(unit)](int64_t done, int64_t total) {
    fmt::print(stderr, "\r{}: {}/{} {}", label, done, total, unit);
    if (done == total) fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
  };
}

void add_scratch_server_options(CLI::App* command, const std::string& verb, std::string* db,
                                std::string* isolation) {
  command
      ->add_option("--db", *db,
                   verb +
                       " on this PostgreSQL or MariaDB server, in a scratch schema or "
                       "database made for the run and dropped at its end (a step is then "
                       "one statement, and a lock wait is the server's)")
      ->check(ledger_locator());
  add_isolation_option(command, isolation);
}

ScratchServerChoice scratch_server_choice(const std::string& command, const std::string& db,
                                          const std::string& isolation) {
  ScratchServerChoice choice;
  if (db.empty()) {
    if (!isolation.empty())
      throw_if_error(Status::usage("--isolation needs --db with a PostgreSQL or MariaDB URL"));
    return choice;
  }
  Locator locator;
  throw_if_error(parse_locator(db, &locator));
  if (!is_server(locator.engine))
    throw_if_error(Status::usage(
        fmt::format("--db {}: {} runs on SQLite in a scratch ledger of its own; --db takes a "
                    "postgresql:// or mariadb:// URL",
                    locator.shown, command)));
  choice.isolation = isolation_option(db, isolation);
  choice.server = std::move(locator);
  return choice;
}

void add_scratch_redis_option(CLI::App* command, std::string* redis) {
  command
      ->add_option("--redis", *redis,
                   "token and lock-table: keep tokens and locks in this Redis "
                   "(redis:///path/to/socket, redis://host:port/N or redis-sentinel://...), in "
                   "keys of the run's own "
                   "that expire on its virtual clock and go at its end; the ledger stays where "
                   "--db says")
      ->check(redis_locator());
}

std::optional<RedisLocator> scratch_redis_choice(const std::string& redis,
                                                 const std::vector<std::string>& strategies) {
  if (redis.empty()) return std::nullopt;
  RedisLocator locator;
  throw_if_error(parse_redis_locator(redis, &locator));
  if (!keeps_guards(strategies))
    throw_if_error(Status::usage(
        fmt::format("--redis keeps tokens and locks: {} {} neither (token and lock-table do)",
                    fmt::join(strategies, ", "), strategies.size() == 1 ? "keeps" : "keep")));
  return locator;
}

const char* const kTopologyHelp =
    "how the servers stand, one part each time: ledger=server|standby[:lag-ms=MS,"
    "reads=primary|standby,sync=off|on|strict,max-lag-ms=MS]|galera[:nodes=N,apply-ms=MS,"
    "sync-wait=0|1,retry-autocommit=0|1], "
    "guards=server|replica[:lag-ms=MS,sync=off|on]|lease (see docs/simulator.md)";

void check_topology(const SimConfig& config, bool on_server, bool redis,
                    const std::vector<std::string>& strategies, bool given) {
  SimConfig resolved = config;
  throw_if_error(resolve_topology(&resolved.topology, &resolved.faults, config.read_your_writes));
  const SimTopology& topology = resolved.topology;
  if (topology.guards_replica && redis)
    throw_if_error(Status::usage(
        "guards=replica (or a failover of the guard store) is the simulator's own replicated "
        "store; --redis names a real Redis: leave one out"));
  if (topology.standby() && on_server)
    throw_if_error(Status::usage(
        "ledger=standby (or a failover of the ledger) copies the simulator's own SQLite ledger; "
        "on a server, read from a real standby (idemlab STRATEGY --read-db URL) or fail one "
        "over (scripts/servers postgres failover)"));
  if (topology.galera() && on_server)
    throw_if_error(Status::usage(
        "ledger=galera models a cluster of the simulator's own SQLite ledgers; on a real "
        "cluster, give its URL: --db mariadb://USER:PASS@H1:P1,H2:P2,H3:P3/DB"));
  const bool locks =
      std::find(strategies.begin(), strategies.end(), "lock-table") != strategies.end();
  if (config.fence && !locks)
    throw_if_error(Status::usage(fmt::format(
        "--fence changes nothing for {}: only lock-table takes a lock whose grant it can fence",
        fmt::join(strategies, ", "))));
  if (config.fence && !topology.guards_replica && !redis)
    throw_if_error(Status::usage(
        "--fence needs the locks in a store apart from the ledger, which numbers each grant: "
        "--topology guards=lease (a consensus store, as etcd), guards=replica, or --redis URL"));
  if (given && config.topology.guards_replica && !keeps_guards(strategies))
    throw_if_error(Status::usage(fmt::format(
        "--topology guards=replica changes nothing for {}: {} no token or lock (token and "
        "lock-table do)",
        fmt::join(strategies, ", "), strategies.size() == 1 ? "it keeps" : "they keep")));
}

std::string scratch_redis_arguments(const std::optional<RedisLocator>& redis) {
  return redis ? " --redis " + redis->shown : "";
}

std::string scratch_server_arguments(const ScratchServerChoice& choice) {
  if (!choice.server) return "";
  std::string out = " --db " + choice.server->shown;
  if (choice.isolation != Isolation::kDefault)
    out += fmt::format(" --isolation {}", isolation_name(choice.isolation));
  return out;
}

}  // namespace idemlab
