// The pitfalls of replicated servers, each shown on a real topology (scripts/servers).
#include "strategies/replication_pitfalls.h"

namespace idemlab {

namespace {

ReplicationPitfall stale_guard_read() {
  return {
      .name = "stale-guard-read",
      .deployment =
          "a PostgreSQL hot standby taking the reads made outside a write "
          "transaction, as read/write splitting sends them (--read-db URL)",
      .reference =
          "000 and 004 §5.1 (the SELECT before the INSERT); the references leave out "
          "read/write splitting, where that SELECT is usually sent",
      .goes_wrong =
          "a standby that has not replayed the first attempt answers \"not found\" "
          "for a request that was applied, and a retry after a lost answer does the "
          "work again wherever that read is the only guard",
      .effects =
          {
              {"select-insert",
               "with --pitfall=no-unique-index the retry moves money twice; guarded, the "
               "unique key refuses it, and the repeat's answer, read back on the standby too, "
               "is in_progress (exit 5) until the standby catches up, instead of the first answer"},
              {"select-for-update",
               "with --pitfall=check-outside-lock the retry moves money twice; guarded, the "
               "check runs under FOR UPDATE on the primary"},
              {"lock-table",
               "with --pitfall=ttl-too-short or no-owner-check the retry moves money twice; "
               "guarded, the second look at the flow row under the ledger's write lock finds "
               "it: once"},
              {"state-machine",
               "its read of the row it has just created misses it: busy (own_write_unseen), "
               "nothing moves, until the standby catches up"},
              {"optimistic-lock",
               "its version read misses the row it has just created: busy (own_write_unseen), "
               "nothing moves, until the standby catches up"},
              {"dedup-table",
               "a repeat's look at the dedup row misses it: in_progress instead of the first "
               "answer; the dedup key still refuses the work"},
          },
      .fix =
          "--read-your-writes: a standby's \"not found\" is trusted only once it has "
          "replayed past the primary's WAL position (which is past every earlier commit, "
          "the client's own included, whether or not its answer arrived); otherwise the "
          "read goes to the primary. A client that has its answer's commit_lsn asks with "
          "it: query --read-db URL --read-your-writes LSN",
      .shown_by = "tests/e2e/postgres-standby",
      .lesson = "the-standby-has-not-seen-it-yet",
      .audit_kind = "applied_more_than_once",
  };
}

ReplicationPitfall guard_in_async_replica() {
  return {
      .name = "guard-in-async-replica",
      .deployment =
          "tokens and locks in Redis behind Sentinels (--redis "
          "redis-sentinel://...), which replicates asynchronously",
      .reference =
          "003 (Redis \"as a cluster, at least two servers\"); 000 and 004 §5.8 "
          "(SET NX PX)",
      .goes_wrong =
          "a write the primary acknowledged (a token's DEL, a lock's SET) is not yet "
          "on the replica a failover promotes: the token is unused again, the lock "
          "free again",
      .effects =
          {
              {"token",
               "with its token in Redis, a retry after the failover consumes the token again "
               "and moves money twice; with the token in the ledger's table (no --redis) the "
               "DEL commits with the money: once"},
              {"lock-table",
               "with its lock in Redis, a twin after the failover takes the lock the first "
               "still holds: two holders. Guarded, the second look at the flow row in the "
               "ledger stops the twin; --pitfall=ttl-too-short moves money twice"},
          },
      .fix =
          "keep the guard in the ledger's own transaction (the SQL token table, the "
          "unique index, the second look), or fence the lock (--fence); ?wait=N on the URL "
          "narrows the window (fewer acknowledgements answer 75) and cannot close it",
      .shown_by = "tests/e2e/redis-failover",
      .lesson = "a-failover-forgets-a-token",
      .audit_kind = "applied_more_than_once",
  };
}

ReplicationPitfall guard_outlives_ledger() {
  return {
      .name = "guard-outlives-ledger",
      .deployment =
          "the ledger on a PostgreSQL primary with an asynchronous standby (or behind "
          "Patroni, asynchronous), the token in Redis (--redis)",
      .reference = "003 (the token in Redis, the money in the database)",
      .goes_wrong =
          "a failover of the ledger loses the last transfers the standby never "
          "received, but Redis keeps their tokens consumed: the client was told "
          "applied, the money is gone, and its retry, a repeat of a request whose "
          "flow row is gone, is answered in_progress for ever",
      .effects =
          {
              {"token",
               "with its token in Redis the transfer moves zero times; with the token in the "
               "ledger the failover loses token and transfer together, and the retry moves it "
               "once"},
          },
      .fix =
          "keep the guard with the money (the SQL token table), or a synchronous standby "
          "(synchronous_commit on or remote_apply; Patroni's synchronous_mode_strict): nothing "
          "acknowledged is lost",
      .shown_by = "tests/e2e/postgres-standby; tests/e2e/patroni",
      .lesson = "a-failover-forgets-what-it-was-told",
      .audit_kind = "told_applied_not_in_ledger (audit --answers)",
  };
}

ReplicationPitfall lock_without_fence() {
  return {
      .name = "lock-without-fence",
      .deployment =
          "a lease lock in Redis (--redis), ZooKeeper (--locks zookeeper://...) or etcd "
          "(--locks etcd://...)",
      .reference = "000 and 004 §5.8 (the lock with a TTL)",
      .goes_wrong =
          "a holder stopped longer than its lease (a process paused by the kernel, a "
          "long garbage collection: --fault pause:ms=N,at=STEP) loses the lock "
          "without knowing it; a twin takes it and does the work, and the first, "
          "resumed, does it again",
      .effects =
          {
              {"lock-table",
               "guarded, the second look at the flow row under the ledger's lock stops the "
               "resumed holder; --pitfall=ttl-too-short and no-owner-check trust the lock and "
               "move money twice"},
          },
      .fix =
          "--fence: each grant carries a number that grows with every grant (ZooKeeper's "
          "creation zxid, etcd's create_revision, a Redis INCR), and the ledger refuses, in the "
          "money's own "
          "transaction, a write whose fence is lower than one it has already seen for the "
          "key. A Redis INCR can go backwards at a failover: the ledger then refuses the "
          "new holder too, and is still safe",
      .shown_by = "tests/e2e/zookeeper-lock; tests/e2e/etcd-lock; tests/e2e/redis-failover",
      .lesson = "a-lock-needs-a-fencing-token",
      .audit_kind = "applied_more_than_once",
  };
}

ReplicationPitfall stale_node_read() {
  return {
      .name = "stale-node-read",
      .deployment =
          "a MariaDB Galera cluster, each client's connection on a node of its own "
          "(mariadb://USER:PASS@H1:P1,H2:P2,H3:P3/DB?node=N), its reads with "
          "wsrep_sync_wait=0",
      .reference =
          "the references assume one database server; in a cluster every node takes writes, "
          "and each transaction is certified against the others' only at its COMMIT",
      .goes_wrong =
          "a node whose applier is behind answers \"not found\" for a request another node "
          "applied, and certification compares write sets, not the read that decided: a retry "
          "there does the work again wherever that read is the only guard. Twins on two nodes "
          "do not wait for each other's row locks; the cluster refuses one at COMMIT",
      .effects =
          {
              {"select-insert",
               "with --pitfall=no-unique-index the retry on the lagging node moves money twice; "
               "with wsrep_sync_wait=1 its select waits for the node to apply the first "
               "attempt: a replay, once"},
              {"select-for-update",
               "twins on two nodes both pass their FOR UPDATE; at COMMIT the cluster rolls one "
               "back (1213, certification_failed): busy, exit 75, and its retry replays: once"},
              {"direct-insert",
               "twins on two nodes: the loser is refused at COMMIT (certification_failed), or "
               "meets the winner's row: once"},
              {"dedup-table",
               "twins on two nodes: the loser is refused at COMMIT (certification_failed), or "
               "meets the winner's row: once"},
          },
      .fix =
          "read causally (wsrep_sync_wait=1, which the commands that only read use unless the "
          "URL says otherwise): a read waits until its node has applied what the cluster "
          "committed before it; and keep the unique key, whose write certification checks "
          "across nodes. A certification failure is a refusal, nothing changed: retry",
      .shown_by = "tests/e2e/galera",
      .lesson = "one-strategy-three-engines",
      .audit_kind = "applied_more_than_once",
  };
}

}  // namespace

std::span<const ReplicationPitfall> replication_pitfalls() {
  static const std::vector<ReplicationPitfall> kPitfalls{
      stale_guard_read(), guard_in_async_replica(), guard_outlives_ledger(), lock_without_fence(),
      stale_node_read()};
  return kPitfalls;
}

}  // namespace idemlab
