// The servers a lesson can name, with the option that gives each and how scripts/servers
// starts it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "lessons/lesson.h"

namespace idemlab {

const std::vector<LessonServerKind>& lesson_server_kinds() {
  static const std::vector<LessonServerKind> kKinds{
      {kPostgresPlaceholder, "--postgres", "postgresql", "postgres", "IDEMLAB_TEST_POSTGRES",
       "a scratch PostgreSQL database for the lessons that compare engines: they drop and "
       "re-create idemlab's tables there"},
      {kMariadbPlaceholder, "--mariadb", "mariadb", "mariadb", "IDEMLAB_TEST_MARIADB",
       "the same, a scratch MariaDB database"},
      {kBrokerPlaceholder, "--broker", "amqp", "rabbitmq", "IDEMLAB_BROKER",
       "a RabbitMQ broker, amqp://USER:PASSWORD@HOST:PORT, for the lessons on a queue: each "
       "uses a queue of its own there"},
      {kPrimaryPlaceholder, "--primary", "postgresql", "postgres-standby",
       "IDEMLAB_TEST_PG_PRIMARY",
       "a PostgreSQL primary with a streaming standby (--standby), for the lessons on a "
       "standby: they re-create idemlab's tables there, pause the standby's replay, cut the "
       "link and promote the standby, so the pair is spent afterwards"},
      {kStandbyPlaceholder, "--standby", "postgresql", "postgres-standby",
       "IDEMLAB_TEST_PG_STANDBY", "the hot standby of --primary, as a superuser"},
      {kSentinelPlaceholder, "--sentinel", "redis-sentinel", "redis-sentinel",
       "IDEMLAB_TEST_REDIS_SENTINEL",
       "Redis through its Sentinels, redis-sentinel://HOST:PORT[,...]/MASTER, for the lesson "
       "on a Redis failover, which stops the primary (--redis-primary): spent afterwards"},
      {kRedisPrimaryPlaceholder, "--redis-primary", "redis", "redis-sentinel",
       "IDEMLAB_TEST_REDIS_PRIMARY",
       "that Redis's primary, whose replication logs in as the user repl (as scripts/servers "
       "starts it)"},
      {kZookeeperPlaceholder, "--zookeeper", "zookeeper", "zookeeper", "IDEMLAB_TEST_ZOOKEEPER",
       "a ZooKeeper server, zookeeper://HOST:PORT, for the lesson on fencing tokens"},
      {kEtcdPlaceholder, "--etcd", "etcd", "etcd", "IDEMLAB_TEST_ETCD",
       "etcd's members, etcd://HOST:PORT[,...], for the lesson on a lease: it keeps its locks "
       "in keys of its own there"},
      {kNatsPlaceholder, "--nats", "nats", "nats", "IDEMLAB_TEST_NATS",
       "a NATS JetStream server, nats://HOST:PORT, for the lesson on a broker's duplicate "
       "window: it makes a stream of its own there"},
      {kGaleraPlaceholder, "--galera", "mariadb", "galera", "IDEMLAB_TEST_GALERA",
       "a scratch database on a Galera cluster, its URL naming every node "
       "(mariadb://USER:PASS@H1:P1,H2:P2,H3:P3/DB), for the engine lesson's cluster steps: "
       "left out without it",
       true},
  };
  return kKinds;
}

std::string_view placeholder_of(std::string_view arg) {
  if (arg.empty() || arg[0] != '$') return "";
  return arg.substr(0, std::min(arg.find('?'), arg.size()));
}

std::vector<const LessonServerKind*> servers_named(const Lesson& lesson) {
  std::vector<const LessonServerKind*> out;
  for (const LessonServerKind& kind : lesson_server_kinds()) {
    const auto names = [&](const LessonStep& step) {
      return std::any_of(step.args.begin(), step.args.end(), [&](const std::string& arg) {
        return placeholder_of(arg) == kind.placeholder;
      });
    };
    if (std::any_of(lesson.steps.begin(), lesson.steps.end(), names)) out.push_back(&kind);
  }
  return out;
}

std::string lesson_invocation(const Lesson& lesson) {
  std::string out = fmt::format("idemlab lesson {}", lesson.number);
  for (const LessonServerKind* kind : servers_named(lesson))
    if (!kind->optional) out += fmt::format(" {} URL", kind->option);  // what it needs
  return out;
}

const LessonServerKind* server_kind(std::string_view placeholder) {
  for (const LessonServerKind& kind : lesson_server_kinds())
    if (kind.placeholder == placeholder) return &kind;
  return nullptr;
}

bool is_given(const LessonServers& servers, std::string_view placeholder) {
  const auto given = servers.find(placeholder);
  return given != servers.end() && !given->second.empty();
}

const LessonServerKind* absent_server(const LessonStep& step, const LessonServers& servers) {
  for (const std::string& arg : step.args)
    if (const LessonServerKind* kind = server_kind(placeholder_of(arg));
        kind && !is_given(servers, kind->placeholder))
      return kind;
  return nullptr;
}

std::string missing_servers(const Lesson& lesson, const LessonServers& servers) {
  std::vector<const LessonServerKind*> missing;
  bool any_given = false;
  for (const LessonServerKind* kind : servers_named(lesson)) {
    any_given = any_given || is_given(servers, kind->placeholder);
    if (!kind->optional && !is_given(servers, kind->placeholder)) missing.push_back(kind);
  }
  if (missing.empty() || (lesson.any_server && any_given)) return "";
  std::vector<std::string> options, names;
  std::string given;
  for (const LessonServerKind* kind : missing) {
    options.push_back(std::string(kind->option) + " URL");
    if (std::find(names.begin(), names.end(), kind->up) == names.end())
      names.emplace_back(kind->up);
    given += fmt::format(" {} \"${}\"", kind->option, kind->env);
  }
  return fmt::format(
      "lesson {} needs {}{}: scripts/servers up {}; eval \"$(scripts/servers env)\"; idemlab "
      "lesson {}{}",
      lesson.number, fmt::join(options, lesson.any_server ? " or " : " and "),
      lesson.any_server ? " (the steps of a server not given are left out)" : "",
      fmt::join(names, " "), lesson.number, given);
}

}  // namespace idemlab
