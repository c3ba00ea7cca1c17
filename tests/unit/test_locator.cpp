// Tests for db/locator: what --db names, and that a password never shows.
#include <doctest/doctest.h>

#include <cstdlib>

#include "db/etcd/etcd_locator.h"
#include "db/locator.h"
#include "db/redis/redis_locator.h"
#include "db/zookeeper/zookeeper_locator.h"

using namespace idemlab;

namespace {
Locator parsed(std::string_view text) {
  Locator locator;
  const Status status = parse_locator(text, &locator);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return locator;
}
std::string refusal(std::string_view text) {
  Locator locator;
  const Status status = parse_locator(text, &locator);
  REQUIRE_FALSE(status.is_ok());
  CHECK(status.code() == StatusCode::kUsage);
  return status.message();
}
}  // namespace

TEST_CASE("a plain path is a SQLite file, whatever characters it holds") {
  for (std::string_view path :
       {"idemlab.db", "/tmp/a b.db", "file:x.db?mode=ro", "c:/ledger.db", "./postgresql://x"}) {
    const Locator locator = parsed(path);
    CHECK(locator.engine == Engine::kSqlite);
    CHECK(locator.path == path);
  }
}

TEST_CASE("server URLs name their backend, credentials, host, port, database and parameters") {
  const Locator pg = parsed("postgresql://ann:s%40cret@db.example:6543/ledger?host=/run/pg");
  CHECK(pg.engine == Engine::kPostgres);
  CHECK(pg.user == "ann");
  CHECK(pg.password == "s@cret");
  CHECK(pg.host == "db.example");
  CHECK(pg.port == 6543);
  CHECK(pg.database == "ledger");
  REQUIRE(pg.parameters.size() == 1);
  CHECK(pg.parameters[0] == std::pair<std::string, std::string>{"host", "/run/pg"});
  CHECK(pg.shown == "postgresql://ann:***@db.example:6543/ledger?host=/run/pg");
  CHECK(parsed("POSTGRES:///x").engine == Engine::kPostgres);
  const Locator maria = parsed("mysql://root@localhost/idemlab?socket=/tmp/m.sock");
  CHECK(maria.engine == Engine::kMariadb);
  CHECK(maria.password.empty());
  CHECK(maria.port == 0);
  CHECK(parsed("mariadb://u:p@h/d").engine == Engine::kMariadb);
  CHECK(maria.connect_timeout_s == defaults::kServerWaitS);
}

TEST_CASE("connect_timeout is read on both engines, not passed on, and bounded") {
  const Locator pg = parsed("postgresql://u@/d?host=/run/pg&connect_timeout=120");
  CHECK(pg.connect_timeout_s == 120);
  REQUIRE(pg.parameters.size() == 1);
  CHECK(pg.parameters[0].first == "host");
  CHECK(parsed("mariadb://u@localhost/d?connect_timeout=1").connect_timeout_s == 1);
  for (std::string_view bad : {"postgresql://u:hunter2@h/db?connect_timeout=0",
                               "postgresql://u:hunter2@h/db?connect_timeout=3601",
                               "mariadb://u:hunter2@h/db?connect_timeout=ten"})
    CHECK(refusal(bad).find("connect_timeout is a whole number of seconds") != std::string::npos);
}

TEST_CASE("an unknown scheme or a URL that cannot be read is a usage error without the password") {
  CHECK(refusal("postgress://u:hunter2@h/db").find("unknown scheme 'postgress'") !=
        std::string::npos);
  for (std::string_view bad : {"postgresql://u:hunter2@h:0/db", "postgresql://u:hunter2@h:99999/db",
                               "postgresql://u:hunter2@h:port/db", "mariadb://u:hunter2%zz@h/db",
                               "mariadb://u:hunter2@h", "postgresql://u:hunter2@h/db?host",
                               "postgresql://u:hunter2@h/d%00b", "redis://u:hunter2@h/0"}) {
    const std::string message = refusal(bad);
    CHECK_MESSAGE(message.find("hunter2") == std::string::npos, message);
    CHECK_MESSAGE(message.find("***") != std::string::npos, message);
  }
  CHECK(refusal("").find("empty") != std::string::npos);
}

TEST_CASE("redaction leaves URLs without a password and plain paths alone") {
  CHECK(redact_locator("postgresql://u@h/db") == "postgresql://u@h/db");
  CHECK(redact_locator("a:b@c.db") == "a:b@c.db");
  CHECK(redact_locator("mariadb://u:p:q@h/d") == "mariadb://u:***@h/d");
}

TEST_CASE("a printed URL pastes: *** as the password is IDEMLAB_PASSWORD's, or refused") {
  unsetenv("IDEMLAB_PASSWORD");
  Locator locator;
  const Status refused = parse_locator("mariadb://u:***@h:3306/d", &locator);
  CHECK(refused.code() == StatusCode::kUsage);
  CHECK(refused.message().find("IDEMLAB_PASSWORD") != std::string::npos);
  RedisLocator redis;
  CHECK(parse_redis_locator("redis://:***@h:6379/0", &redis).code() == StatusCode::kUsage);
  setenv("IDEMLAB_PASSWORD", "s3cret", 1);
  REQUIRE(parse_locator("mariadb://u:***@h:3306/d", &locator).is_ok());
  CHECK(locator.password == "s3cret");
  CHECK(locator.shown == "mariadb://u:***@h:3306/d");
  REQUIRE(parse_redis_locator("redis://:***@h:6379/0", &redis).is_ok());
  CHECK(redis.password == "s3cret");
  unsetenv("IDEMLAB_PASSWORD");
  CHECK(
      hidden_password_note("idemlab simulate --db mariadb://u:***@h/d").find("IDEMLAB_PASSWORD") !=
      std::string::npos);
  CHECK(hidden_password_note("idemlab simulate --db mariadb://u@h/d").empty());
}

TEST_CASE(
    "redis-sentinel:// names the Sentinels to ask and the primary's name, never the password") {
  RedisLocator locator;
  REQUIRE(parse_redis_locator(
              "redis-sentinel://:s3cret@127.0.0.1:26379,127.0.0.1:26380,[::1]:26381/idemlab"
              "?connect_timeout=2",
              &locator)
              .is_ok());
  REQUIRE(locator.sentinels.size() == 3);
  CHECK(locator.sentinels[0] == std::pair<std::string, int>{"127.0.0.1", 26379});
  CHECK(locator.sentinels[2] == std::pair<std::string, int>{"::1", 26381});
  CHECK(locator.master_name == "idemlab");
  CHECK(locator.password == "s3cret");
  CHECK(locator.connect_timeout_s == 2);
  CHECK(locator.shown.find("s3cret") == std::string::npos);
  for (const char* bad : {"redis-sentinel://127.0.0.1:26379", "redis-sentinel://127.0.0.1:26379/",
                          "redis-sentinel://127.0.0.1/idemlab", "redis-sentinel:///idemlab",
                          "redis-sentinel://:pw@h:99999/m"}) {
    RedisLocator out;
    const Status status = parse_redis_locator(bad, &out);
    CHECK_MESSAGE(status.code() == StatusCode::kUsage, bad);
    CHECK(status.message().find("pw") == std::string::npos);
  }
}

TEST_CASE("a Redis URL's query: connect_timeout, wait and wait_ms, and nothing else") {
  RedisLocator locator;
  REQUIRE(
      parse_redis_locator("redis://h:1/0?wait=1&wait_ms=250&connect_timeout=3", &locator).is_ok());
  CHECK(locator.wait_replicas == 1);
  CHECK(locator.wait_ms == 250);
  CHECK(locator.connect_timeout_s == 3);
  RedisLocator plain;
  REQUIRE(parse_redis_locator("redis://h:1", &plain).is_ok());
  CHECK(plain.wait_replicas == 0);
  for (const char* bad : {"redis://h?wait=-1", "redis://h?wait=x", "redis://h?wait_ms=0",
                          "redis://h?sync=1", "redis://h?wait"}) {
    RedisLocator out;
    CHECK_MESSAGE(parse_redis_locator(bad, &out).code() == StatusCode::kUsage, bad);
  }
}

TEST_CASE("a --locks URL names a ZooKeeper ensemble and its session timeout") {
  ZooKeeperLocator locator;
  REQUIRE(parse_zookeeper_locator(
              "zookeeper://127.0.0.1:2181,[::1]:2182?session_ms=400&connect_timeout=2", &locator)
              .is_ok());
  CHECK(locator.hosts == "127.0.0.1:2181,[::1]:2182");
  CHECK(locator.session_ms == 400);
  CHECK(locator.connect_timeout_s == 2);
  CHECK(parse_zookeeper_locator("zookeeper://h:1/", &locator).is_ok());
  CHECK(locator.session_ms == 10000);
  for (const char* bad : {"zookeeper://", "zookeeper://h", "zookeeper://h:0", "redis://h:1",
                          "zookeeper://h:1?session_ms=0", "zookeeper://h:1?lease=5",
                          "zookeeper://h:1,?session_ms=5"}) {
    ZooKeeperLocator out;
    CHECK_MESSAGE(parse_zookeeper_locator(bad, &out).code() == StatusCode::kUsage, bad);
  }
}

TEST_CASE("a --locks URL names etcd's members, in the order a client asks them") {
  EtcdLocator locator;
  REQUIRE(parse_etcd_locator("etcd://127.0.0.1:2379,127.0.0.1:2380?connect_timeout=3", &locator)
              .is_ok());
  CHECK(locator.members == std::vector<std::string>{"127.0.0.1:2379", "127.0.0.1:2380"});
  CHECK(locator.connect_timeout_s == 3);
  CHECK(locator.topology.kind == TopologyKind::kEnsemble);
  for (const char* bad : {"etcd://", "etcd://h", "etcd://h:0", "zookeeper://h:1",
                          "etcd://h:1?lease=5", "etcd://h:1?connect_timeout=0", "etcd://h:1,"}) {
    EtcdLocator out;
    CHECK_MESSAGE(parse_etcd_locator(bad, &out).code() == StatusCode::kUsage, bad);
  }
}

TEST_CASE("a MariaDB URL may name a Galera cluster's nodes; ?node=N picks the one used") {
  Locator first;
  REQUIRE(parse_locator("mariadb://u:pw@10.0.0.1:3306,10.0.0.2:3307,10.0.0.3:3308/ledger", &first)
              .is_ok());
  REQUIRE(first.nodes.size() == 3);
  CHECK(first.node == 1);
  CHECK(first.host == "10.0.0.1");
  CHECK(first.port == 3306);
  Locator second;
  REQUIRE(parse_locator("mariadb://u:pw@10.0.0.1:3306,10.0.0.2:3307,10.0.0.3:3308/ledger"
                        "?node=2&wsrep_sync_wait=1&wsrep_retry_autocommit=0",
                        &second)
              .is_ok());
  CHECK(second.host == "10.0.0.2");
  CHECK(second.port == 3307);
  Locator lone;
  REQUIRE(parse_locator("mariadb://u:pw@10.0.0.1:3306/ledger", &lone).is_ok());
  CHECK(lone.nodes.empty());
  for (const char* bad :
       {"mariadb://u:pw@10.0.0.1:3306,10.0.0.2:3307/ledger?node=3",
        "mariadb://u:pw@10.0.0.1:3306,10.0.0.2/ledger", "mariadb://u:pw@h:1,,h:2/ledger",
        "mariadb://u:pw@h:1/ledger?wsrep_sync_wait=16",
        "mariadb://u:pw@h:1/ledger?wsrep_retry_autocommit=-1",
        "mariadb://u:pw@h:1,h:2/ledger?node=1&node=2", "postgresql://u:pw@h:1,h:2/ledger?node=1",
        "mariadb://u:pw@h:1/ledger?node=1", "postgresql://u:pw@h:1,/ledger"}) {
    Locator out;
    const Status status = parse_locator(bad, &out);
    CHECK_MESSAGE(status.code() == StatusCode::kUsage, bad);
    CHECK(status.message().find("pw") == std::string::npos);
  }
}

TEST_CASE("serve's pool and consume spread over a cluster's nodes unless the URL picks one") {
  const std::string cluster = "mariadb://u:pw@10.0.0.1:3306,10.0.0.2:3307,10.0.0.3:3308/ledger";
  const auto topology = [](const std::string& url) {
    Locator locator;
    REQUIRE(parse_locator(url, &locator).is_ok());
    return locator.topology;
  };
  CHECK(spreads_connections(topology(cluster)));
  CHECK(spreads_connections(topology(cluster + "?wsrep_sync_wait=1")));
  CHECK(!spreads_connections(topology(cluster + "?node=2")));
  CHECK(!spreads_connections(topology("mariadb://u:pw@10.0.0.1:3306/ledger")));
  CHECK(!spreads_connections(topology("ledger.db")));
  CHECK(!spreads_connections(
      topology("postgresql://u@/l?host=/a,/b&target_session_attrs=read-write")));
  Locator locator;
  REQUIRE(parse_locator(cluster, &locator).is_ok());
  const Locator third = on_member(locator, member_for_turn(locator.topology, 2));
  CHECK(third.node == 3);
  CHECK(third.host == "10.0.0.3");
  CHECK(third.port == 3308);
  CHECK(on_member(locator, 0).host == "10.0.0.1");
}

TEST_CASE("several PostgreSQL hosts are failover candidates, the session asked kept") {
  for (const char* url :
       {"postgresql://u:pw@h1:5432,h2:5433/ledger?target_session_attrs=read-write",
        "postgresql://u@/ledger?host=/run/a,/run/b&target_session_attrs=read-write"}) {
    Locator locator;
    REQUIRE_MESSAGE(parse_locator(url, &locator).is_ok(), url);
    CHECK(locator.topology.kind == TopologyKind::kCandidates);
    CHECK(locator.topology.members() == 2);
    CHECK(locator.topology.session == "read-write");
    CHECK(session_takes_writes(locator.topology.session));
    CHECK(topology_text(locator.topology) == "2 failover candidates, the read-write one taken");
  }
  Locator any;
  REQUIRE(parse_locator("postgresql://u@/ledger?host=/run/a,/run/b", &any).is_ok());
  CHECK(any.topology.kind == TopologyKind::kCandidates);
  CHECK(!session_takes_writes(any.topology.session));
  Locator lone;
  REQUIRE(parse_locator("postgresql://u@/ledger?host=/run/a", &lone).is_ok());
  CHECK(lone.topology.kind == TopologyKind::kServer);
}
