// The lesson on a lock in ZooKeeper: a holder whose whole process stops for longer than its
// session loses the lock without knowing it; a twin takes it; the first resumes and writes.
// Only a fencing token the ledger checks stops it. Also the steps lease_lesson.cpp shares.
#include <fmt/format.h>

#include "lessons/steps.h"

namespace idemlab {

namespace {

// lock-table for request BIZ_SEQ with its lock in ZooKeeper (the shortest session the server
// grants), trusting the lock alone; `extra` follows.
std::string locked(std::string_view biz_seq, std::string_view extra) {
  std::string out = "lock-table --db l.db --locks " + std::string(kZookeeperPlaceholder) +
                    "?session_ms=400 --biz-seq " + std::string(biz_seq) +
                    " --from alice --to bob --amount 10 --pitfall=ttl-too-short";
  if (!extra.empty()) out += " " + std::string(extra);
  return out;
}

}  // namespace

std::vector<LessonStep> stopped_holder_steps(
    const std::function<std::string(std::string_view, std::string_view)>& attempt,
    std::string_view first, std::string_view second, const StoppedHolderWords& say) {
  const std::string stop = "--fault pause:gate=gate,at=begin";
  return {step("A ledger, in a SQLite file.", "init --db l.db"),
          held(say.held, attempt(first, stop)),
          again_while(say.twin, attempt(first, ""), 5),
          release(say.resumed),
          step(fmt::format("The journal: {} moved twice.", first), "audit --db l.db", 7),
          held(say.fenced_held, attempt(second, "--fence " + stop)),
          again_while("", attempt(second, "--fence"), 5),
          release(say.fenced_resumed, 5),
          step(fmt::format("{} moved once.", second), "audit --db l.db", 7)};
}

Lesson lock_needs_fence() {
  return {0,
          "a-lock-needs-a-fencing-token",
          "A lock needs a fencing token",
          "000 and 004 §5.8 (the distributed lock), with ZooKeeper's lock",
          "A lock service hands the lock to someone else once the holder's lease runs out, and "
          "the holder cannot know when that was: a process stopped (a long garbage collection, "
          "a frozen VM) still believes it holds the lock when it resumes. $ZOOKEEPER stands for "
          "the ZooKeeper given with --zookeeper; each holder is lock-table with the lock in "
          "ZooKeeper, in the variant that trusts the lock alone and does not look at the "
          "record again before it writes.",
          stopped_holder_steps(
              locked, "k1", "k2",
              {.held = "The first holder takes the lock (an ephemeral znode of its session), then "
                       "its whole process stops before its transaction: its session's pings "
                       "stop too.",
               .twin = "A twin is refused (in_progress) while the lock is held. Once ZooKeeper "
                       "has expired the stopped holder's session, and its znode with it, the "
                       "twin takes the lock and moves the money.",
               .resumed = "The first holder resumes. It still believes it holds the lock, and "
                          "it moves the money too.",
               .fenced_held = "Again, with --fence: every grant carries its znode's creation "
                              "number, which grows with every grant, into the money's own "
                              "transaction, and the ledger keeps the highest it has seen for the "
                              "lock.",
               .fenced_resumed = "The first holder resumes; its number is lower than the twin's, "
                                 "and the ledger refuses its write in the same transaction as "
                                 "the money."}),
          "A lease-based lock is a hint, not a guarantee: its holder can lose it at any moment "
          "without knowing. The resource itself must check a number that grows with every grant "
          "(a fencing token); ZooKeeper's znode creation number is one, and a Redis lock needs "
          "an INCR beside it. Without one, only a guard kept in the ledger (the record read "
          "again under the ledger's own lock, as lock-table does) keeps the money moving once."};
}

}  // namespace idemlab
