// `idemlab serve`: the transfer endpoint over real HTTP (http/transfer_server.h), until SIGINT or
// SIGTERM: then it stops accepting, lets the attempts in flight finish (for at most
// --drain-ms), and exits 0.
#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include "attempt/fault_check.h"
#include "cli/command.h"
#include "cli/deployment_options.h"
#include "cli/errors.h"
#include "core/interrupt.h"
#include "core/limits.h"
#include "core/parse.h"
#include "db/locator.h"
#include "db/schema/ledger_file.h"
#include "http/transfer_server.h"

namespace idemlab {

namespace {

struct ServeOptions {
  DeploymentFlags deployment;  // --db, --redis, --locks, --fence, --read-db, --isolation
  std::string strategy;
  std::optional<std::string> pitfall;
  std::string listen = "127.0.0.1:8080";
  bool require_key = false;
  bool unique_index = false;
  std::vector<std::string> faults;
  int64_t seed = 1;
  int64_t lock_ttl_ms = defaults::kLockTtlMs;
  int64_t token_ttl_ms = defaults::kTokenTtlMs;
  int64_t pool = 0;  // 0: default_pool_size()
  ListenerOptions listener;
  int64_t timeout_ms = 10000;
  int64_t drain_ms = 10000;
  bool json = false;  // one JSON line per event on standard output
};

// As many ledger connections as cores, at least 2. More connections do not make a database on
// the same few cores commit faster: they wait on each other. Measured with wrk at 32
// connections, dedup-table on PostgreSQL, 2 cores: a pool of 32 served 800 requests/s, 8 about
// 1,150, 4 1,308, 2 1,936; on a SQLite file (one writer) 8 served 2,321, 2 2,663.
int64_t default_pool_size() {
  return std::max<int64_t>(2, std::thread::hardware_concurrency());
}

// HOST:PORT, [IPV6]:PORT.
void parse_listen(const std::string& text, ListenerOptions* out) {
  const size_t colon = text.rfind(':');
  int64_t port = 0;
  if (colon == std::string::npos || !parse_whole(text.substr(colon + 1), 0, 65535, &port))
    throw_if_error(
        Status::usage(fmt::format("--listen {}: write HOST:PORT, e.g. 127.0.0.1:0", text)));
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  if (host.empty()) throw_if_error(Status::usage(fmt::format("--listen {}: no host", text)));
  out->host = host;
  out->port = static_cast<int>(port);
}

TransferServer make_server(const ServeOptions& options) {
  ServeSettings settings;
  settings.strategy = find_strategy(options.strategy);
  settings.pitfall = pitfall_option(settings.strategy->info(), options.pitfall);
  settings.require_key = options.require_key;
  settings.unique_index = options.unique_index;
  if (options.unique_index && !settings.strategy->info().offers_unique_index)
    throw_if_error(Status::usage(fmt::format(
        "--unique-index is for select-for-update; {} keeps its own guard", options.strategy)));
  settings.lock_ttl_ms = options.lock_ttl_ms;
  settings.token_ttl_ms = options.token_ttl_ms;
  settings.fault_log = options.json ? FaultLog::kJson : FaultLog::kText;
  std::vector<FaultSpec> faults;
  throw_if_error(parse_faults(options.faults, &faults));
  settings.faults = RequestFaults(std::move(faults), static_cast<uint64_t>(options.seed));
  throw_if_error(settings.faults.check(Surface::kServe, *settings.strategy, settings.pitfall));
  settings.fence = options.deployment.fence;
  settings.read_your_writes = options.deployment.read_your_writes;
  // The connections each request borrows: the ledger, its guard store (Redis or ZooKeeper) and
  // its standby for reads, kept in a pool; on a SQLite file they take its writer in turn.
  Deployment deployment = deployment_of(options.deployment, settings.strategy, true);
  return TransferServer(std::move(settings), std::move(deployment),
                        static_cast<int>(options.pool ? options.pool : default_pool_size()));
}

// Waits for SIGINT or SIGTERM, then for the attempts in flight, at most `drain_ms`.
void serve_until_stopped(Listener& listener, int64_t drain_ms) {
  while (interrupt_signal() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  listener.stop_accepting();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(drain_ms);
  while (listener.in_flight() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  listener.stop();
}

ExitCode run_serve(const ServeOptions& options) {
  ListenerOptions listen = options.listener;
  parse_listen(options.listen, &listen);
  listen.timeout_s = static_cast<int>(std::max<int64_t>(1, (options.timeout_ms + 999) / 1000));
  TransferServer server = make_server(options);
  // The ledger is checked before the first request: a missing or foreign one, an unreachable
  // store or a --read-db that is no standby of it stops here.
  {
    LinkPool::Lease first = value_or_throw(server.pool().acquire(/*takes_turn=*/false));
    throw_if_error(server.pool().deployment().check(*first));
  }
  install_interrupt_handlers();
  Listener listener;
  throw_if_error(listener.start(
      listen, [&server](const HttpMessage& message) { return server.handle(message); }));
  const bool ipv6 = listen.host.find(':') != std::string::npos;
  const std::string url = fmt::format("http://{}{}{}:{}", ipv6 ? "[" : "", listen.host,
                                      ipv6 ? "]" : "", listener.port());
  const Pitfall pitfall = server.settings().pitfall;
  if (options.json)
    print_json(
        {{"event", "listening"},
         {"url", url},
         {"strategy", options.strategy},
         {"pitfall", pitfall == Pitfall::kNone ? nlohmann::ordered_json()
                                               : nlohmann::ordered_json(pitfall_name(pitfall))},
         {"ledger", redact_locator(options.deployment.db)},
         {"topology", topology_kind_name(server.pool().deployment().ledger().topology.kind)}});
  else
    fmt::print("listening on {} (strategy {}{}, ledger {}, {}; Ctrl-C stops)\n", url,
               options.strategy, pitfall_argument(pitfall), redact_locator(options.deployment.db),
               topology_text(server.pool().deployment().ledger().topology));
  std::fflush(stdout);
  serve_until_stopped(listener, options.drain_ms);
  const char* signal = interrupt_signal() == SIGINT ? "SIGINT" : "SIGTERM";
  if (options.json)
    print_json({{"event", "stopped"}, {"signal", signal}});
  else
    fmt::print("stopped: {}\n", signal);
  return ExitCode::kOk;
}

void add_limit_options(CLI::App* command, ServeOptions* options) {
  command
      ->add_option("--max-body-bytes", options->listener.max_body_bytes,
                   "a body longer than this is refused, 413 (default 65536)")
      ->check(whole_number(limits::kMinBodyBytes, limits::kMaxBodyBytes));
  command
      ->add_option("--max-header-bytes", options->listener.max_header_bytes,
                   "the request line and headers may take this much, else 431 (default 16384)")
      ->check(whole_number(limits::kMinHeaderBytes, limits::kMaxHeaderBytes));
  command
      ->add_option("--timeout-ms", options->timeout_ms,
                   "a connection that sends or reads nothing this long is closed, whole "
                   "seconds (default 10000)")
      ->check(whole_number(1000, limits::kMaxDurationMs));
  command
      ->add_option("--max-connections", options->listener.max_connections,
                   "connections at once, each a thread; more are refused (default 256)")
      ->check(whole_number(1, limits::kMaxHttpConnections));
  command
      ->add_option("--pool", options->pool,
                   "ledger connections at once (default: as many as cores, at least 2)")
      ->check(whole_number(1, limits::kMaxPoolConnections));
  command
      ->add_option("--drain-ms", options->drain_ms,
                   "on SIGINT or SIGTERM, how long attempts in flight may finish (default "
                   "10000)")
      ->check(whole_number(0, limits::kMaxDurationMs));
}

}  // namespace

void register_serve(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* command = app.add_subcommand(
      "serve", "the transfer endpoint over HTTP, with Idempotency-Key, for curl and browsers");
  DeploymentFlags& deployment = options->deployment;
  add_db_option(command, &deployment.db);
  command->add_option("--strategy", options->strategy, "the strategy POST /transfers runs")
      ->required()
      ->check(CLI::IsMember(strategy_names()));
  add_pitfall_option(command, &options->pitfall);
  add_redis_option(command, &deployment.redis);
  add_lock_store_options(command, &deployment.locks, &deployment.fence);
  add_isolation_option(command, &deployment.isolation);
  add_attempt_read_options(command, &deployment);
  command->add_option("--listen", options->listen,
                      "HOST:PORT (default 127.0.0.1:8080, loopback; port 0: a free one)");
  command->add_flag("--unique-index", options->unique_index,
                    "select-for-update: insert the flow row under the unique index too (on "
                    "PostgreSQL FOR UPDATE locks no missing row, so twins both insert without it)");
  command->add_flag("--require-key", options->require_key,
                    "a POST /transfers without an Idempotency-Key is refused, 400");
  command->add_option("--fault", options->faults, fault_help(Surface::kServe));
  command->add_option("--seed", options->seed, "seed of the faults' draws (default 1)")
      ->check(whole_number(0, limits::kMaxSeed));
  command->add_option("--lock-ttl-ms", options->lock_ttl_ms, "lock-table TTL (default 30000)")
      ->check(whole_number(1, limits::kMaxDurationMs));
  command
      ->add_option("--token-ttl-ms", options->token_ttl_ms,
                   "tokens from POST /tokens and the payment page (default 600000)")
      ->check(whole_number(1, limits::kMaxDurationMs));
  add_limit_options(command, options.get());
  command->add_flag("--json", options->json,
                    "one JSON object a line on standard output, one per event: listening (its "
                    "url), fault (one that acted), stopped");
  command->footer(
      "Resources: GET / (a page linking the others), POST /transfers (JSON or a form: from, to, "
      "amount; Idempotency-Key), POST /tokens, GET /transfers/ID, GET /accounts and "
      "/accounts/NAME, PUT and DELETE /accounts/NAME/limit, GET /pay and /pay?guard=token (the "
      "classroom's page), GET /problems (the error types); HEAD wherever GET.\n"
      "The first line on standard output says where it listens. SIGINT or SIGTERM: stop "
      "accepting, let attempts in flight finish, exit 0.");
  command->callback([options, &result] { result.exit_code = run_serve(*options); });
}

}  // namespace idemlab
