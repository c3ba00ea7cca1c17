// Options many commands share: where the ledger and the guards live, how a server runs the
// transaction, --json, --pitfall and --source; each checked as it is read.
#include <fmt/format.h>

#include <cstdlib>

#include "cli/command.h"
#include "db/etcd/etcd_locator.h"
#include "db/locator.h"
#include "db/redis/redis_store.h"
#include "db/zookeeper/zookeeper_store.h"
#include "report/json.h"

namespace idemlab {

// A --db that is a URL is parsed here, before any command runs, so that a typo in a scheme is
// never taken for a file name; the message never shows a password.
CLI::Validator ledger_locator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        Locator locator;
        Status status = parse_locator(text, &locator);
        return status.is_ok() ? "" : status.message();
      },
      "PATH|URL");
}

void add_db_option(CLI::App* command, std::string* db) {
  command
      ->add_option("--db", *db,
                   "where the ledger lives: a SQLite file, or postgresql://... or "
                   "mariadb://... (environment: IDEMLAB_DB)")
      ->envname("IDEMLAB_DB")
      ->check(ledger_locator())
      ->capture_default_str();
}

void add_isolation_option(CLI::App* command, std::string* isolation) {
  command
      ->add_option("--isolation", *isolation,
                   "on a server: read-committed, repeatable-read or serializable (default: "
                   "the server's own)")
      ->check(CLI::IsMember({"read-committed", "repeatable-read", "serializable"}));
}

Isolation isolation_option(const std::string& db, const std::string& isolation) {
  Isolation level = Isolation::kDefault;
  if (isolation.empty()) return level;
  Locator locator;
  throw_if_error(parse_locator(db, &locator));
  if (!is_server(locator.engine))
    throw_if_error(Status::usage(
        "--isolation is for ledgers on a server: a SQLite file has one writer at a time, "
        "always serializable"));
  (void)parse_isolation(isolation, &level);
  return level;
}

EngineShown engine_shown(const Connection& connection) {
  if (!is_server(connection.engine())) return {};
  return {std::string(engine_name(connection.engine())), connection.isolation(), connection.node()};
}

CLI::Validator redis_locator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        RedisLocator locator;
        Status status = parse_redis_locator(text, &locator);
        return status.is_ok() ? "" : status.message();
      },
      "URL");
}

void add_redis_option(CLI::App* command, std::string* redis) {
  command
      ->add_option("--redis", *redis,
                   "keep tokens and locks in Redis (redis:///path/to/socket, "
                   "redis://host:port/N, or redis-sentinel://host:port,.../MASTER to follow "
                   "the primary its Sentinels name; ?wait=N waits for N replicas after each "
                   "guard write); the ledger stays where --db says")
      ->envname("IDEMLAB_REDIS")
      ->check(redis_locator());
}

void add_lock_store_options(CLI::App* command, std::string* locks, bool* fence) {
  command
      ->add_option("--locks", *locks,
                   "keep the locks in ZooKeeper (zookeeper://host:port[,...][?session_ms=N]: "
                   "an ephemeral sequential znode, the session timeout its lease) or etcd "
                   "(etcd://host:port[,...]: a key under a lease of the lock's TTL)")
      ->envname("IDEMLAB_LOCKS")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            Status status = Status::ok();
            if (text.starts_with("etcd://")) {
              EtcdLocator locator;
              status = parse_etcd_locator(text, &locator);
            } else {
              ZooKeeperLocator locator;
              status = parse_zookeeper_locator(text, &locator);
            }
            return status.is_ok() ? "" : status.message();
          },
          "URL"));
  command->add_flag("--fence", *fence,
                    "carry the lock grant's fence (ZooKeeper's czxid, etcd's create_revision, a "
                    "Redis INCR) into the "
                    "ledger, which refuses a holder whose fence is not the highest it has seen");
}

void check_lock_store_options(const std::string& redis, const std::string& locks, bool fence) {
  if (!redis.empty() && !locks.empty())
    throw_if_error(Status::usage("--redis and --locks both name a lock store: give one"));
  if (fence && redis.empty() && locks.empty())
    throw_if_error(Status::usage(
        "--fence needs a lock outside the ledger (--locks or --redis): a lock row in the "
        "ledger is already checked in the money's transaction"));
}

void check_locks_strategy(const Strategy& strategy, std::string* locks, bool fence) {
  if (&strategy == find_strategy("lock-table")) return;
  const char* ambient = std::getenv("IDEMLAB_LOCKS");
  if (!locks->empty() && ambient && *locks == ambient) locks->clear();  // for lock-table only
  if (!locks->empty() || fence)
    throw_if_error(Status::usage(fmt::format(
        "--locks and --fence are for lock-table; {} keeps no lock", strategy.info().name)));
}

void add_json_flag(CLI::App* command, bool* json) {
  command->add_flag("--json", *json, "print one JSON object, for scripts");
}

void add_pitfall_option(CLI::App* command, std::optional<std::string>* pitfall) {
  command
      ->add_option("--pitfall", *pitfall,
                   "leave a guard out: a bare --pitfall is the strategy's main pitfall, "
                   "--pitfall=NAME another (see: idemlab explain STRATEGY)")
      ->expected(0, 1)
      ->default_str("");
}

Pitfall pitfall_option(const StrategyInfo& info, const std::optional<std::string>& pitfall) {
  if (!pitfall) return Pitfall::kNone;
  Pitfall out = Pitfall::kNone;
  throw_if_error(resolve_pitfall(info, *pitfall, &out));
  return out;
}

void add_source_option(CLI::App* command, std::string* source) {
  command->add_option("--source", *source, "who sends the request: api, batch, ...")
      ->capture_default_str();
}

void print_json(const nlohmann::ordered_json& value) {
  fmt::print("{}\n", json_text(value));
}

}  // namespace idemlab
