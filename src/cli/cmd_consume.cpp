// `idemlab consume`: transfer messages from a RabbitMQ queue or a JetStream stream, each one
// attempt of a strategy on the ledger, acked after its commit (or on receipt, or with an ack
// the server confirms), until the queue stays idle.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "attempt/fault_check.h"
#include "cli/command.h"
#include "cli/deployment_options.h"
#include "cli/errors.h"
#include "core/clock.h"
#include "core/interrupt.h"
#include "core/limits.h"
#include "db/locator.h"
#include "db/schema/ledger_file.h"
#include "ledger/audit.h"
#include "queue/brokers.h"
#include "queue/consumer.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct ConsumeOptions {
  std::string broker;
  std::string queue;
  DeploymentFlags deployment;  // --db, --redis, --locks, --fence, --read-db, --isolation
  std::string strategy;
  std::optional<std::string> pitfall;
  int64_t prefetch = 1;
  std::string ack = "after-commit";
  std::string key = "business";
  std::vector<std::string> faults;
  int64_t seed = 1;
  int64_t until_idle_ms = 0;
  int64_t max_deliveries = defaults::kMaxDeliveries;
  int64_t requeue_pause_ms = defaults::kRequeuePauseMs;
  int64_t lock_ttl_ms = defaults::kLockTtlMs;
  int64_t ack_wait_ms = 0;
  bool unique_index = false;
  bool json = false;
};

ConsumeSettings settings_of(const ConsumeOptions& options) {
  ConsumeSettings settings;
  AttemptPolicy& policy = settings.policy;
  policy.transport = Transport::kQueue;
  policy.strategy = find_strategy(options.strategy);
  policy.pitfall = pitfall_option(policy.strategy->info(), options.pitfall);
  policy.unique_index = options.unique_index;
  policy.lock_ttl_ms = options.lock_ttl_ms;
  policy.owner = new_owner(Transport::kQueue);
  if (policy.strategy->info().needs_token)
    throw_if_error(
        Status::usage("consume runs strategies whose key is the request: the token "
                      "strategy needs a token per request, which a queue never carries"));
  settings.ack_on_receipt = options.ack == "on-receipt";
  settings.key_by_message_id = options.key == "message-id";
  std::vector<FaultSpec> faults;
  throw_if_error(parse_faults(options.faults, &faults));
  settings.faults = RequestFaults(std::move(faults), static_cast<uint64_t>(options.seed));
  throw_if_error(settings.faults.check(Surface::kConsume, *policy.strategy, policy.pitfall));
  settings.until_idle_ms = static_cast<int>(options.until_idle_ms);
  settings.max_deliveries = static_cast<int>(options.max_deliveries);
  settings.requeue_pause_ms = static_cast<int>(options.requeue_pause_ms);
  settings.queue = options.queue;
  return settings;
}

// Each kind of violation once, with its first detail and how many there are.
void print_violation_kinds(const AuditReport& audit, const std::string& db) {
  std::vector<std::pair<const Violation*, int64_t>> kinds;
  for (const Violation& violation : audit.violations) {
    auto same = std::find_if(kinds.begin(), kinds.end(),
                             [&](const auto& kind) { return kind.first->kind == violation.kind; });
    if (same == kinds.end())
      kinds.emplace_back(&violation, 1);
    else
      ++same->second;
  }
  for (const auto& [first, count] : kinds)
    fmt::print("  {}{}: {}\n", first->kind, count > 1 ? fmt::format(" ({})", count) : "",
               first->detail);
  if (kinds.size() < audit.violations.size())
    fmt::print("  every one: idemlab audit --db {}\n", redact_locator(db));
}

// What the deliveries were and what became of them; what was dead-lettered and where.
void print_counters(const ConsumeOptions& options, const ConsumeTally& tally) {
  std::string answers;
  for (const auto& [answer, count] : tally.answers)
    answers += fmt::format("{}{} {}", answers.empty() ? "" : ", ", count, answer);
  fmt::print(
      "{} delivered ({} redelivered) carrying {}: {}; {} acked, {} back to the queue, {} "
      "dead-lettered\n",
      tally.delivered, tally.redelivered,
      count_of(static_cast<int64_t>(tally.requests.size()), "request"),
      answers.empty() ? "none" : answers, tally.acked, tally.requeued, tally.dead_lettered);
  if (tally.dead_lettered > 0)
    fmt::print("dead-lettered: {} on {} (the first: {})\n",
               count_of(tally.dead_lettered, "message"), options.queue + ".dead",
               tally.first_dead_letter);
  if (tally.reconnects > 0)
    fmt::print("put back untried while the ledger could not be reached: {}\n",
               count_of(tally.reconnects, "delivery"));
  if (tally.left_in_queue > 0)
    fmt::print("left in the queue: {}, for the next consumer\n",
               count_of(tally.left_in_queue, "message"));
}

// The counters, and the audit's verdict on the ledger they left.
void print_tally(const ConsumeOptions& options, const ConsumeTally& tally,
                 const AuditReport& audit) {
  if (options.json) {
    nlohmann::ordered_json answers = nlohmann::ordered_json::object();
    for (const auto& [answer, count] : tally.answers) answers[answer] = count;
    nlohmann::ordered_json kinds = nlohmann::ordered_json::array();
    for (const Violation& violation : audit.violations)
      kinds.push_back({{"kind", violation.kind}, {"detail", violation.detail}});
    print_json({{"delivered", tally.delivered},
                {"redelivered", tally.redelivered},
                {"acked", tally.acked},
                {"requeued", tally.requeued},
                {"dead_lettered", tally.dead_lettered},
                {"dead_letter_queue", options.queue + ".dead"},
                {"left_in_queue", tally.left_in_queue},
                {"reconnects", tally.reconnects},
                {"requests", tally.requests.size()},
                {"answers", answers},
                {"audit",
                 {{"ok", audit.ok()},
                  {"violations", kinds},
                  {"requests_applied", audit.requests_applied},
                  {"times_money_moved", audit.times_money_moved}}}});
    return;
  }
  print_counters(options, tally);
  fmt::print(
      "audit: {} ({} applied, money moved {})\n",
      audit.ok() ? "ok" : count_of(static_cast<int64_t>(audit.violations.size()), "violation"),
      count_of(audit.requests_applied, "request"), count_of(audit.times_money_moved, "time"));
  print_violation_kinds(audit, options.deployment.db);
}

// 10 when a message was dead-lettered, 75 when one was left in the queue, else 0.
ExitCode consume_exit(const ConsumeTally& tally) {
  if (tally.dead_lettered > 0) return ExitCode::kDeadLettered;
  if (tally.left_in_queue > 0) return ExitCode::kRetryable;
  return ExitCode::kOk;
}

// The links the deliveries borrow: one set, or on a Galera cluster's URL that picks no node one
// on each node, taken in turn (db/topology.h's rule). Checked before the first delivery.
int consume_pool_size(const Deployment& deployment) {
  const Topology& topology = deployment.ledger().topology;
  return spreads_connections(topology) ? topology.members() : 1;
}

// --ack double and --ack-wait-ms, checked against what the broker can do.
void check_broker(const ConsumeOptions& options, const BrokerKind& broker) {
  if (options.ack == "double" && !broker.double_ack)
    throw_if_error(Status::usage(fmt::format(
        "--ack double: {} does not confirm an ack (NATS JetStream's AckSync does)", broker.name)));
  if (options.ack_wait_ms > 0 && broker.redelivers_on_close)
    throw_if_error(Status::usage(fmt::format(
        "--ack-wait-ms: {} redelivers an unacked message when its consumer's connection "
        "closes, and keeps no ack wait",
        broker.name)));
}

ConsumedQueueOptions queue_options_of(const ConsumeOptions& options) {
  ConsumedQueueOptions queue;
  queue.queue = options.queue;
  queue.prefetch = static_cast<int>(options.prefetch);
  queue.double_ack = options.ack == "double";
  queue.ack_wait_ms = static_cast<int>(options.ack_wait_ms);
  return queue;
}

ExitCode run_consume(const ConsumeOptions& options) {
  const BrokerKind& broker = *value_or_throw(broker_of(options.broker));
  check_broker(options, broker);
  ConsumeSettings settings = settings_of(options);
  settings.policy.fence = options.deployment.fence;
  settings.read_your_writes = options.deployment.read_your_writes;
  Deployment deployment = deployment_of(options.deployment, settings.policy.strategy);
  const int size = consume_pool_size(deployment);
  LinkPool pool(std::move(deployment), size);
  {  // a missing or foreign ledger, or a --read-db that is no standby of it, stops here
    LinkPool::Lease first = value_or_throw(pool.acquire(/*takes_turn=*/false));
    throw_if_error(pool.deployment().check(*first));
  }
  std::unique_ptr<ConsumedQueue> queue =
      value_or_throw(broker.open_consumed(options.broker, queue_options_of(options)));
  install_interrupt_handlers();
  ConsumeTally tally;
  const Status consumed =
      consume_transfers(*queue, pool, settings, &tally, [&](const std::string& line) {
        if (options.json) return;
        fmt::print("{}\n", line);
        std::fflush(stdout);  // a line per delivery as it settles, into a pipe or a log too
      });
  if (!consumed.is_ok()) {  // what was done stands; then why it stopped
    if (!options.json) print_counters(options, tally);
    throw_if_error(consumed);
  }
  AuditSettings audit_settings;
  audit_settings.now_ms = WallClock().now_ms();
  AuditReport audit;
  // Read as `idemlab audit` reads: on a Galera cluster, causally, so that node 1 counts what
  // the deliveries committed on the other nodes.
  {  // a consumer stopped by a signal still reads its verdict: these waits are not cut
    const UncutWaits uncut;
    Connection reader =
        value_or_throw(open_ledger(options.deployment.db, Access::kRead, defaults::kBusyTimeoutMs));
    throw_if_error(audit_ledger(reader, audit_settings, &audit));
  }
  print_tally(options, tally, audit);
  return consume_exit(tally);
}

// How a message that was not settled comes back: its deliveries, its pauses, and how long a
// lock stranded by a failover holds it.
void add_redelivery_options(CLI::App* command, ConsumeOptions* options) {
  command
      ->add_option("--max-deliveries", options->max_deliveries,
                   "a message not settled by its Nth delivery is dead-lettered with its last "
                   "answer (default 10)")
      ->check(whole_number(1, limits::kMaxDeliveries));
  command
      ->add_option("--requeue-pause-ms", options->requeue_pause_ms,
                   "before a message goes back to the queue, pause this long, doubled each "
                   "time (at most 5000): a failing ledger gets time to heal (default 100)")
      ->check(whole_number(0, limits::kMaxRequeuePauseMs));
  command
      ->add_option("--lock-ttl-ms", options->lock_ttl_ms,
                   "lock-table TTL (default 30000): a lock whose holder was lost (its server "
                   "failed over) holds its request's redeliveries this long")
      ->check(whole_number(1, limits::kMaxDurationMs));
}

}  // namespace

void register_consume(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<ConsumeOptions>();
  CLI::App* command = app.add_subcommand(
      "consume",
      "transfer messages from a RabbitMQ queue or a JetStream stream, each an attempt of a "
      "strategy");
  command->add_option("--broker", options->broker, broker_url_help())
      ->required()
      ->envname("IDEMLAB_BROKER");
  command->add_option("--queue", options->queue, "a durable queue, or on JetStream a stream")
      ->required();
  DeploymentFlags& deployment = options->deployment;
  add_db_option(command, &deployment.db);
  command->add_option("--strategy", options->strategy, "the strategy each message runs")
      ->required()
      ->check(CLI::IsMember(strategy_names()));
  add_pitfall_option(command, &options->pitfall);
  add_redis_option(command, &deployment.redis);
  add_lock_store_options(command, &deployment.locks, &deployment.fence);
  add_attempt_read_options(command, &deployment);
  add_isolation_option(command, &deployment.isolation);
  command->add_flag("--unique-index", options->unique_index,
                    "select-for-update: the flow row under the unique index too");
  command
      ->add_option("--prefetch", options->prefetch,
                   "unacked messages the broker may hand over at once (default 1)")
      ->check(whole_number(1, limits::kMaxPrefetch));
  command
      ->add_option("--ack", options->ack,
                   "after-commit (default): ack once the attempt is settled; on-receipt: "
                   "ack first, the pitfall ack-on-receipt (a consumer that dies mid-work loses the "
                   "message); double (JetStream): after-commit, each ack waited on until the "
                   "server confirms it")
      ->check(CLI::IsMember({"after-commit", "on-receipt", "double"}));
  command
      ->add_option("--ack-wait-ms", options->ack_wait_ms,
                   "JetStream: a delivery not acked this long is delivered again, also when its "
                   "consumer died (default: the server's, 30000); set when the consumer is made")
      ->check(whole_number(1, limits::kMaxDurationMs));
  command
      ->add_option("--key", options->key,
                   "business (default): the request's biz_seq; message-id: the broker's "
                   "message id, the pitfall message-key (a producer's second copy does not "
                   "share it)")
      ->check(CLI::IsMember({"business", "message-id"}));
  command->add_option("--fault", options->faults, fault_help(Surface::kConsume));
  add_redelivery_options(command, options.get());
  command->add_option("--seed", options->seed, "seed of the faults' draws (default 1)")
      ->check(whole_number(0, limits::kMaxSeed));
  command
      ->add_option("--until-idle", options->until_idle_ms,
                   "MS: stop once no message came this long (default: run until SIGINT)")
      ->check(whole_number(1, limits::kMaxDurationMs));
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_consume(*options); });
}

}  // namespace idemlab
