// The lesson on Redis as the references deploy it, a primary and a replica behind Sentinels:
// a failover forgets a token's DEL the primary acknowledged, and the retry moves the money
// again. The moves are redis-cli's, on the primary the teacher gave.
#include "lessons/steps.h"

namespace idemlab {

namespace {

LessonStep redis_cli(std::string say, std::vector<std::string> command) {
  std::vector<std::string> args{"-u", std::string(kRedisPrimaryPlaceholder)};
  args.insert(args.end(), command.begin(), command.end());
  return run_program(std::move(say), "redis-cli", std::move(args));
}

// One attempt of request BIZ_SEQ with the token the lesson kept as `token`; `extra` follows.
std::string pay_with_token(std::string_view token, std::string_view biz_seq,
                           std::string_view extra) {
  std::string out = "token --db l.db --token " + std::string(token) + " --biz-seq " +
                    std::string(biz_seq) + " --from alice --to bob --amount 10";
  if (!extra.empty()) out += " " + std::string(extra);
  return out;
}

}  // namespace

Lesson failover_forgets_token() {
  const std::string redis = "--redis " + std::string(kSentinelPlaceholder);
  return {0,
          "a-failover-forgets-a-token",
          "A Redis failover forgets a token",
          "003 (the token in Redis, \"as a cluster, at least two servers\")",
          "The reference keeps its one-time tokens in Redis, run as a cluster. Redis answers a "
          "write once its primary has it and ships it to the replica afterwards; when the "
          "primary is lost, a Sentinel promotes the replica, with whatever it had received. "
          "$SENTINEL and $REDIS_PRIMARY stand for the Sentinels and the primary given with "
          "--sentinel and --redis-primary; the lesson cuts the replica off, so it certainly "
          "misses the DEL, and stops the primary: the topology is spent afterwards.",
          {step("A ledger, in a SQLite file.", "init --db l.db"),
           captured("A token in Redis, found through the Sentinels...", "$TOKEN",
                    "token issue --db l.db " + redis),
           captured("...and one kept in the ledger's own table, for comparison.", "$LEDGER_TOKEN",
                    "token issue --db l.db"),
           redis_cli("The replica has every write so far (1 replica acknowledged).",
                     {"WAIT", "1", "30000"}),
           redis_cli("Replication logs in as the user repl: switch it off and drop its link. "
                     "From now on the replica receives nothing.",
                     {"ACL", "SETUSER", "repl", "off"}),
           redis_cli("", {"CLIENT", "KILL", "USER", "repl"}),
           step("The token strategy: the primary acknowledges the token's DEL, the money moves, "
                "the answer is lost.",
                pay_with_token("$TOKEN", "r1", redis + " --fault response-lost"), 75),
           step("The same with the token in the ledger.",
                pay_with_token("$LEDGER_TOKEN", "r2", "--fault response-lost"), 75),
           redis_cli("The primary is lost. Within a few seconds the Sentinels agree it is down "
                     "and promote the replica.",
                     {"SHUTDOWN", "NOSAVE"}),
           step("The retry follows the Sentinels to the new primary (it waits while they "
                "switch), finds the token unused, takes it, and moves the money again.",
                pay_with_token("$TOKEN", "r1", redis)),
           step("The token kept in the ledger was taken in the money's own transaction: the "
                "retry is a repeat.",
                pay_with_token("$LEDGER_TOKEN", "r2", "")),
           step("The journal: r1 moved twice.", "audit --db l.db", 7),
           step("The same failover in the simulator, every strategy on one schedule: 500 "
                "requests, the guard store failing over right after 10% of the guard writes, "
                "30% of the answers lost. Only token, its guard apart from the money, moves "
                "money twice.",
                "compare --scenario redis-failover")},
          "Redis replicates asynchronously: a write it acknowledged can be gone after a failover "
          "(\"last failover wins\"), and a token's DEL is such a write. A guard kept in the "
          "ledger, taken in the money's own transaction, cannot outlive or forget the money; a "
          "guard kept elsewhere needs a fencing token checked by the ledger (explain "
          "lock-table)."};
}

}  // namespace idemlab
