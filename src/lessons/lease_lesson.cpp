// The lesson on a lock held by an etcd lease: the lease runs out while its holder is stopped,
// etcd deletes the key, a twin creates it again; the first resumes and writes. The key's
// create_revision, checked by the ledger, is the fence that stops it.
#include "lessons/steps.h"

namespace idemlab {

namespace {

// lock-table for request BIZ_SEQ with its lock in etcd, under etcd's shortest lease, trusting
// the lock alone; `extra` follows.
std::string leased(std::string_view biz_seq, std::string_view extra) {
  std::string out = "lock-table --db l.db --locks " + std::string(kEtcdPlaceholder) +
                    " --lock-ttl-ms 2000 --biz-seq " + std::string(biz_seq) +
                    " --from alice --to bob --amount 10 --pitfall=ttl-too-short";
  if (!extra.empty()) out += " " + std::string(extra);
  return out;
}

}  // namespace

Lesson lease_is_not_a_lock() {
  return {0,
          "a-lease-is-not-a-lock",
          "A lease is not a lock",
          "000 and 004 §5.8 (the distributed lock), with etcd's lease",
          "etcd's documentation builds a lock from a lease: a key written under a lease with a "
          "time to live, kept alive by its holder, deleted by etcd when the keep-alives stop "
          "for longer than that. Whoever creates the key holds the lock. A process that stops "
          "(a long garbage collection, a frozen VM) stops its keep-alives too, and cannot know "
          "that its key is gone. $ETCD stands for the members given with --etcd; each holder "
          "is lock-table with its lock in etcd under a 2 s lease (etcd's shortest), in the "
          "variant that trusts the lock alone.",
          stopped_holder_steps(
              leased, "e1", "e2",
              {.held = "The first holder creates the key under its lease, then its whole "
                       "process stops before its transaction.",
               .twin = "A twin is refused (in_progress) while the key stands. Once the lease "
                       "has run out, etcd deletes the key; the twin creates it and moves the "
                       "money.",
               .resumed = "The first holder resumes. Nothing told it its lease ended, and it "
                          "moves the money too.",
               .fenced_held = "Again, with --fence: each grant carries the key's "
                              "create_revision, a number etcd raises with every write to the "
                              "cluster, into the money's own transaction, and the ledger keeps "
                              "the highest it has seen for the lock.",
               .fenced_resumed = "The first holder resumes; its revision is lower than the "
                                 "twin's, and the ledger refuses its write in the same "
                                 "transaction as the money."}),
          "A lease says how long its holder was alive the last time etcd heard from it, not "
          "that it holds the lock now. etcd's answer for a lock is the key's revision as a "
          "fencing token: the resource refuses a write whose revision is lower than one it has "
          "seen. Without that check only a guard kept in the ledger, read again under the "
          "ledger's own lock, keeps the money moving once."};
}

}  // namespace idemlab
