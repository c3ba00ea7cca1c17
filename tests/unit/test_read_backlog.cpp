// Tests for sim/shared/read_backlog: a replica that keeps its due writes by the rows a read asks
// for, and applies them only when such a read comes, reads what the primary holds.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <set>
#include <string>
#include <vector>

#include "sim/shared/read_backlog.h"
#include "sim/shared/scratch_ledger.h"

using namespace idemlab;

namespace {

// A primary and a copy of it that follows through a backlog, every write due at once.
struct Pair {
  Pair() {
    RC_ASSERT(ScratchLedger::create({{"alice", 1000}, {"bob", 0}}, &ledger, &primary).is_ok());
    RC_ASSERT(ScratchLedger::copy(primary, &copy).is_ok());
    replica = value_or_throw(copy.connect());
  }
  // Runs `stmt` on the primary; what changed a row goes to the replica, or waits there.
  void write(Stmt stmt, Binds binds) {
    const StepResult result = primary.run(stmt, binds);
    if (!result.ok() || result.changes == 0) return;
    const bool returns = result.row && !result.row->empty();
    LoggedWrite logged{stmt, std::move(binds), returns ? as_int(result.row->at(0)) : 0};
    if (!backlog.keep(logged)) RC_ASSERT(ReadBacklog::apply(replica, logged).ok());
  }
  // The flow rows of `key` on `connection`, oldest first.
  static std::vector<Row> rows(Connection& connection, const std::string& key) {
    std::vector<Row> out;
    const StepResult result = connection.query(
        "SELECT id, status, version, outcome, reason, updated_at_ms, unique_key FROM "
        "transfer_flow WHERE source = 'api' AND biz_seq = :biz_seq ORDER BY id",
        {{":biz_seq", key}}, [&](const Row& row) { out.push_back(row); });
    RC_ASSERT(result.ok());
    return out;
  }
  // The dedup record `key` on `connection`.
  static std::vector<Row> record(Connection& connection, const std::string& key) {
    std::vector<Row> out;
    const StepResult result = connection.query(
        "SELECT dedup_key, source, biz_seq, payload FROM dedup WHERE dedup_key = :key",
        {{":key", key}}, [&](const Row& row) { out.push_back(row); });
    RC_ASSERT(result.ok());
    return out;
  }
  // Before the read `stmt` with `binds` on the replica, what waits for it is applied.
  void prepare(Stmt stmt, const Binds& binds) {
    if (std::vector<LoggedWrite>* kept = backlog.kept_for(stmt, binds)) {
      for (LoggedWrite& logged : *kept) RC_ASSERT(ReadBacklog::apply(replica, logged).ok());
      kept->clear();
    }
  }
  std::vector<Row> read(const std::string& key) {
    prepare(Stmt::kSelectFlow, {{":source", "api"}, {":biz_seq", key}});
    return rows(replica, key);
  }
  std::vector<Row> read_record(const std::string& key) {
    prepare(Stmt::kSelectDedup, {{":key", key}});
    return record(replica, key);
  }

  ScratchLedger ledger, copy;
  Connection primary, replica;
  ReadBacklog backlog{2};  // asks which requests are unread from its second on
};

// The dedup record of request `key`: named by source and key, or (key-without-source) by key.
std::string record_key(const std::string& key, bool with_source) {
  return with_source ? "api:" + key : key;
}
Binds record(const std::string& key, bool with_source, int64_t now) {
  return {{":key", record_key(key, with_source)},
          {":source", "api"},
          {":biz_seq", key},
          {":payload", "alice>bob:1"},
          {":now", now}};
}

Binds flow(const std::string& key, bool keyed, bool unique, int64_t now) {
  return {{":source", "api"},
          {":biz_seq", keyed ? Value{key} : Value{}},
          {":from", "alice"},
          {":to", "bob"},
          {":amount", int64_t{1}},
          {":status", int64_t{1}},
          {":unique_key", int64_t{unique ? 1 : 0}},
          {":strategy", "test"},
          {":now", int64_t{now}}};
}

}  // namespace

TEST_CASE("a replica that applies writes when a read asks for their rows reads the primary's") {
  // Flow inserts of every kind (some with no key, which apply at once and take ids between the
  // others'), upserts that find their row, finishes and claims by id and by key, dedup records
  // inserted and deleted under either form of key, in any order over a few requests; a read
  // of a request's flows or of a record on the replica finds them as on the primary, and a
  // request said to be unread is dropped without harm to the others. (Applying an insert with
  // the engine's next id instead of the primary's fails it at once, and so does dropping a
  // request that is not settled.)
  const std::vector<std::string> keys{"r1", "r2", "r3", "r4"};
  const bool ok = rc::check("the replica's reads are the primary's", [&] {
    Pair pair;
    std::set<std::string> settled;
    pair.backlog.forget_when([&](std::string_view, std::string_view biz_seq, bool) {
      return settled.count(std::string(biz_seq)) != 0;
    });
    std::vector<int64_t> ids;  // every flow row the primary holds
    const int steps = *rc::gen::inRange(1, 40);
    for (int now = 1; now <= steps; ++now) {
      const std::string key = *rc::gen::elementOf(keys);
      if (settled.count(key)) continue;
      const bool with_source = *rc::gen::arbitrary<bool>();
      switch (*rc::gen::inRange(0, 10)) {
        case 0:
        case 1: {
          const Stmt insert = *rc::gen::elementOf(
              std::vector<Stmt>{Stmt::kInsertFlow, Stmt::kInsertFlowIfAbsent, Stmt::kUpsertFlow});
          pair.write(insert,
                     flow(key, *rc::gen::inRange(0, 5) != 0, *rc::gen::arbitrary<bool>(), now));
          ids.push_back(pair.primary.last_insert_id());
          break;
        }
        case 2:
          if (!ids.empty())
            pair.write(Stmt::kFinishFlow, {{":flow_id", *rc::gen::elementOf(ids)},
                                           {":status", int64_t{2}},
                                           {":outcome", "applied"},
                                           {":reason", Value{}},
                                           {":now", int64_t{now}}});
          break;
        case 3:
          pair.write(Stmt::kClaimFlow,
                     {{":source", "api"}, {":biz_seq", key}, {":now", int64_t{now}}});
          break;
        case 4:
          if (!ids.empty())
            pair.write(Stmt::kClaimVersion, {{":flow_id", *rc::gen::elementOf(ids)},
                                             {":version", int64_t{0}},
                                             {":now", int64_t{now}}});
          break;
        case 5:
          settled.insert(key);  // its client is done: never read or written again
          break;
        case 6:
          pair.write(Stmt::kInsertDedup, record(key, with_source, now));
          break;
        case 7:
          pair.write(Stmt::kDeleteDedup, {{":key", record_key(key, with_source)}});
          break;
        case 8: {
          const std::string named = record_key(key, with_source);
          RC_ASSERT(pair.read_record(named) == Pair::record(pair.primary, named));
          break;
        }
        default:
          RC_ASSERT(pair.read(key) == Pair::rows(pair.primary, key));
      }
    }
    for (const std::string& key : keys) {
      if (settled.count(key)) continue;
      RC_ASSERT(pair.read(key) == Pair::rows(pair.primary, key));
      for (const bool with_source : {false, true}) {
        const std::string named = record_key(key, with_source);
        RC_ASSERT(pair.read_record(named) == Pair::record(pair.primary, named));
      }
    }
    RC_ASSERT(pair.backlog.kept() <= 3 * keys.size());
  });
  CHECK(ok);
}
