// The lesson "one strategy, three engines": select-for-update twins on a row that does not exist
// yet, on SQLite, PostgreSQL (READ COMMITTED, its default) and MariaDB (REPEATABLE READ, its
// default), without and with the unique index; and, given a Galera cluster, on two of its
// nodes. Each run is real; the audit gives the verdict.
#include "lessons/steps.h"

namespace idemlab {

namespace {

// The twins' command on one ledger: the gate holds each before `at` (its INSERT unless told).
std::string twin_command(std::string_view db, std::string_view biz_seq, std::string_view extra,
                         std::string_view at = "critical") {
  std::string out = "select-for-update --db ";
  out += db;
  out += " --biz-seq ";
  out += biz_seq;
  out += " --from alice --to bob --amount 1 --fault slow:gate=gate,at=";
  out += at;
  if (!extra.empty()) out += " " + std::string(extra);
  return out;
}

std::vector<LessonStep> sqlite_steps() {
  return {
      step("SQLite: BEGIN IMMEDIATE stands in for FOR UPDATE and locks the whole database. The "
           "first twin holds it at the gate, so the second waits its busy timeout and gives up "
           "(busy, 75): the gate opens only once it has.",
           "init --db l.db"),
      twins("", twin_command("l.db", "t1", "--busy-timeout-ms 500"), {0, 75}),
      twins("With the unique index as well: the same.",
            twin_command("l.db", "t2", "--busy-timeout-ms 500 --unique-index"), {0, 75}),
      step("The journal: each request moved the money once.", "audit --db l.db"),
  };
}

std::vector<LessonStep> postgres_steps() {
  std::string db(kPostgresPlaceholder);
  return {
      step("PostgreSQL, READ COMMITTED: FOR UPDATE locks the rows it finds, and it finds none. "
           "Both twins go on, and both INSERT.",
           "init --force --db " + db),
      twins("", twin_command(db, "t1", ""), {0, 0}),
      step("The journal: the money moved twice.", "audit --db " + db, 7),
      step("Again, with the unique index: the second INSERT waits for the first's key, meets "
           "23505 when it commits, and answers as a repeat.",
           "init --force --db " + db),
      twins("", twin_command(db, "t1", "--unique-index"), {0, 0}),
      step("", "audit --db " + db),
  };
}

std::vector<LessonStep> mariadb_steps() {
  std::string db(kMariadbPlaceholder);
  return {
      step("MariaDB, REPEATABLE READ: each FOR UPDATE locks the gap where the row would be. "
           "Gap locks do not conflict, but each INSERT waits on the other's gap: a deadlock "
           "(1213). The server rolls one twin back, and it answers busy (75).",
           "init --force --db " + db),
      twins("", twin_command(db, "t1", ""), {0, 75}),
      step("", "audit --db " + db),
      step("With the unique index: the same deadlock, one row.", "init --force --db " + db),
      twins("", twin_command(db, "t1", "--unique-index"), {0, 75}),
      step("", "audit --db " + db),
  };
}

// Each twin on its own node ("?node={copy}"), held before COMMIT: both have written, neither has
// committed, so the second to commit certainly conflicts with the first.
std::vector<LessonStep> galera_steps() {
  const std::string db(kGaleraPlaceholder);
  const std::string each_node = db + "?node=" + std::string(kCopyPlaceholder);
  return {
      step("A Galera cluster (with --galera), each twin on its own node. FOR UPDATE locks on "
           "its own node only: neither twin waits for the other, both write, and each holds at "
           "the gate before COMMIT. The cluster certifies a transaction when it commits: the "
           "second to commit wrote the same account rows as the first, fails certification "
           "(1213) and answers busy (75); it never waited, and it did not move the money.",
           "init --force --db " + db),
      twins("", twin_command(each_node, "t1", "", "commit"), {0, 75}),
      step("", "audit --db " + db),
  };
}

}  // namespace

Lesson one_strategy_three_engines() {
  std::vector<LessonStep> steps = sqlite_steps();
  for (std::vector<LessonStep> more : {postgres_steps(), mariadb_steps(), galera_steps()})
    steps.insert(steps.end(), more.begin(), more.end());
  return {0,
          "one-strategy-three-engines",
          "One strategy, three engines",
          "000 and 004 §5.6",
          "select-for-update twins on a row that does not exist yet, each held at a gate before "
          "its INSERT until both have arrived: the same code on SQLite, PostgreSQL and MariaDB. "
          "$POSTGRES and $MARIADB stand for the scratch databases given with --postgres and "
          "--mariadb; the lesson re-creates idemlab's tables there. With --galera, $GALERA is a "
          "Galera cluster's, and the twins run on two of its nodes. Give any of the three: the "
          "steps of a server not given are left out.",
          steps,
          "FOR UPDATE locks rows that exist. A row that does not exist yet is guarded only by what "
          "the engine does with the gap: nothing on PostgreSQL at READ COMMITTED, gap locks and "
          "a deadlock on MariaDB at REPEATABLE READ. The unique index holds on every engine.",
          true};
}

}  // namespace idemlab
