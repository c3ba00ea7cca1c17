// The lessons on a PostgreSQL primary with a streaming hot standby: a read on the standby that
// has not seen the first attempt yet, and a failover that forgets a transfer the client was
// told was applied. The standby's moves are psql's, on the servers the teacher gave.
#include "lessons/steps.h"

namespace idemlab {

namespace {

// psql on one of the pair, each statement on its own (ALTER SYSTEM runs outside a transaction).
LessonStep psql(std::string say, std::string_view server, std::vector<std::string> statements) {
  std::vector<std::string> args{"-qAtX", std::string(server)};
  for (std::string& statement : statements) {
    args.push_back("-c");
    args.push_back(std::move(statement));
  }
  return run_program(std::move(say), "psql", std::move(args));
}

// On the primary: returns once the standby has replayed everything the primary has written
// (it reports its replay position at least every wal_receiver_status_interval).
LessonStep caught_up(std::string say) {
  return psql(std::move(say), kPrimaryPlaceholder,
              {"DO $$ BEGIN WHILE EXISTS (SELECT FROM pg_stat_replication WHERE replay_lsn IS "
               "NULL OR replay_lsn < pg_current_wal_lsn()) LOOP PERFORM pg_sleep(0.01); END "
               "LOOP; END $$"});
}

// alice pays bob 10.00 as request BIZ_SEQ with `strategy`, on the primary; `extra` follows.
std::string pay(std::string_view strategy, std::string_view db, std::string_view biz_seq,
                std::string_view extra = "") {
  std::string out = std::string(strategy) + " --db " + std::string(db) + " --biz-seq " +
                    std::string(biz_seq) + " --from alice --to bob --amount 10";
  if (!extra.empty()) out += " " + std::string(extra);
  return out;
}

}  // namespace

Lesson standby_has_not_seen_it() {
  const std::string primary(kPrimaryPlaceholder), standby(kStandbyPlaceholder);
  const std::string split = "--read-db " + standby + " --pitfall=no-unique-index";
  return {0,
          "the-standby-has-not-seen-it-yet",
          "The standby has not seen it yet",
          "000 and 004 §5.1, with the SELECT sent to a standby",
          "Read/write splitting sends reads to a standby, which replays the primary's log a "
          "little behind it. select-insert's guard is a read: on a standby that has not "
          "replayed the first attempt yet it says \"not found\", and without the unique index "
          "nothing else stops the retry. $PRIMARY and $STANDBY stand for the pair given with "
          "--primary and --standby; the lesson pauses the standby's replay to make the lag "
          "certain, and resumes it at the end.",
          {step("A ledger on the primary.", "init --force --db " + primary),
           caught_up("Until the standby has replayed it:"),
           psql("The standby stops replaying (it still receives the log).", standby,
                {"SELECT pg_wal_replay_pause()"}),
           step("select-insert without its unique index, its select on the standby. The money "
                "moves on the primary, the answer is lost.",
                pay("select-insert", primary, "s1", split + " --fault response-lost"), 75),
           step("The client asks the standby, as its reads are routed: not found.",
                "query --db " + primary + " --read-db " + standby + " --biz-seq s1", 9),
           step("So it retries, and the retry's select on the standby finds nothing either.",
                pay("select-insert", primary, "s1", split)),
           step("The journal, on the primary: s1 moved twice.", "audit --db " + primary, 7),
           step("The fix, read-your-writes: a standby's \"not found\" is trusted only once it has "
                "replayed past the primary's position, read at that moment. It has not, so the "
                "retry reads on the primary and finds the first attempt.",
                pay("select-insert", primary, "s2",
                    split + " --read-your-writes --fault response-lost"),
                75),
           step("", pay("select-insert", primary, "s2", split + " --read-your-writes")),
           psql("The standby replays again, and catches up.", standby,
                {"SELECT pg_wal_replay_resume()"}),
           step("s2 moved once; s1 is still the only transfer moved twice.",
                "audit --db " + primary, 7),
           step("The same in the simulator, every pitfall of select-insert on one schedule: "
                "300 requests, their lookups on a replica a second behind, 30% of the answers "
                "lost. Only the variant without the unique index moves money twice. The "
                "guarded rows' unknowns are safe money and unanswered clients: each retry "
                "met the unique key, looked the first answer up on the replica too, found "
                "nothing there, and was answered in_progress until its five attempts ran out...",
                "compare --scenario replica-reads --strategies select-insert --with-pitfalls"),
           step("...and with read-your-writes no row moves money twice, and every client hears "
                "its answer (unknown 0).",
                "compare --scenario replica-reads --strategies select-insert --with-pitfalls "
                "--read-your-writes")},
          "A read on a standby is a read of the past. A guard that is such a read needs the "
          "unique index on the primary, or read-your-writes; a client that asks a standby "
          "before retrying needs it too."};
}

Lesson failover_forgets_answer() {
  const std::string primary(kPrimaryPlaceholder), standby(kStandbyPlaceholder);
  return {
      0,
      "a-failover-forgets-what-it-was-told",
      "A failover forgets what it was told",
      "000 and 004 §3 (ask, then retry), on a replicated ledger",
      "Asynchronous replication commits on the primary and ships the log afterwards. When "
      "the primary is lost and the standby promoted, the last transfers are gone with their "
      "guards: the ledger is consistent, but a client was told \"applied\". The lesson cuts "
      "the link, so the standby certainly misses the transfer, and promotes the standby; "
      "the pair given with --primary and --standby is spent afterwards.",
      {step("A ledger on the primary.", "init --force --db " + primary),
       caught_up("Until the standby has replayed it:"),
       psql("The link is cut: the standby forgets where its primary is, and stops "
            "receiving.",
            standby,
            {"ALTER SYSTEM RESET primary_conninfo", "SELECT pg_reload_conf()",
             "DO $$ BEGIN WHILE EXISTS (SELECT FROM pg_stat_wal_receiver) LOOP PERFORM "
             "pg_sleep(0.01); END LOOP; END $$"}),
       step("A transfer, applied and answered: the client is told so.",
            pay("select-insert", primary, "f1")),
       psql("The primary is lost; the standby is promoted and takes writes. (The old "
            "primary still runs here: in production it is stopped, or fenced off, first.)",
            standby, {"SELECT pg_promote()"}),
       step("The new primary has never heard of f1.", "query --db " + standby + " --biz-seq f1", 9),
       step("Its journal is consistent: nothing is wrong inside the database.",
            "audit --db " + standby),
       step("A client that asks before retrying retries, and the money moves once, on the "
            "new primary.",
            pay("select-insert", standby, "f1")),
       step("", "audit --db " + standby),
       step("The same in the simulator, every strategy on one schedule: 500 requests, the "
            "ledger failing over after 10% of the commits that move money, 30% of the answers "
            "lost. Every strategy told some clients a success the ledger lost (lied); the "
            "token, kept apart, outlives its transfer and its retries are refused (stuck)...",
            "compare --scenario ledger-failover"),
       step("...and with a synchronous standby, nothing acknowledged is lost.",
            "compare --scenario ledger-failover --topology ledger=standby:sync=on "
            "--topology guards=replica")},
      "Under asynchronous replication an acknowledged commit can be lost at a failover, and "
      "with it the guard that would have made a retry a repeat. What the client was told "
      "must be checked against the ledger after a failover (audit --answers); a guard kept "
      "outside the ledger outlives it (explain token). A synchronous standby loses nothing "
      "acknowledged."};
}

}  // namespace idemlab
