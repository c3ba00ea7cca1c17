// RedisStore: one-time tokens and transfer locks kept in Redis, as the references keep them,
// while the ledger stays in its SQL database. It serves the guard statements only
// (statement_is_guard, statements.h), each as the Redis commands the references name:
// - insert_token: SET token:<t> PX <ttl>;
// - consume_token: DEL token:<t> in one script that also notes who used it (token-used:<t>),
//   so a repeat is answered as one; consume_token_unchecked (check-then-delete): the same DEL,
//   its count ignored;
// - select_token: the token's remaining TTL, or who used it; an expired token is gone, as
//   Redis forgets it: unknown, not expired;
// - acquire_lock: SET lock:<source>:<biz_seq> <owner> NX PX <ttl>; check_lock_owner: GET;
//   release_lock: a Lua compare-and-delete; release_lock_any_owner: a plain DEL.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "db/guard_store.h"
#include "db/redis/redis_locator.h"

struct redisContext;
struct redisReply;

namespace idemlab {

struct Hiredis;  // hiredis's functions, loaded on first use (redis_store.cpp)

class RedisStore final : public GuardStore {
 public:
  RedisStore(const Hiredis* api, redisContext* context, const RedisLocator& locator)
      : api_(api),
        context_(context),
        shown_(locator.shown),
        wait_s_(locator.connect_timeout_s),
        wait_replicas_(locator.wait_replicas),
        wait_ms_(locator.wait_ms),
        one_server_(locator.topology.kind != TopologyKind::kSentinels) {}
  ~RedisStore() override;
  RedisStore(const RedisStore&) = delete;
  RedisStore& operator=(const RedisStore&) = delete;

  StepResult run(Stmt id, const Binds& binds) override;
  std::string_view statement_text(Stmt id) const override;
  void set_trace(TraceSink sink) override {
    trace_ = sink ? std::make_unique<TraceSink>(std::move(sink)) : nullptr;
  }
  const std::string& location() const override { return shown_; }
  std::string node() const override { return node_; }
  void set_node(std::string node) { node_ = std::move(node); }
  bool link_lost() const override { return lost_; }
  bool hung_up() const override;

  // Scratch mode (open_redis_scratch): every key under `prefix`, expiring on the virtual clock.
  void use_scratch(std::string prefix) {
    prefix_ = std::move(prefix);
    scratch_ = true;
  }
  // Deletes every key a scratch store wrote.
  Status clear_scratch();
  // Sends one command; `reply` is owned by the caller (free_reply), nullptr on a lost link.
  StepResult command(const std::vector<std::string>& words, redisReply** reply);
  void free_reply(redisReply* reply) const;

 private:
  StepResult send(const std::vector<std::string>& words, redisReply** reply);
  StepResult eval(const char* script, std::vector<std::string> keys_then_args, int keys,
                  redisReply** reply);
  StepResult token_statement(Stmt id, const Binds& binds);
  // ?wait=N: WAIT for N replicas after a guard write; fewer is an unknown outcome.
  StepResult replicated(StepResult written);  // in redis_role.cpp
  StepResult lock_statement(Stmt id, const Binds& binds);
  // Scratch mode: the deadlines' sorted set, the sweep before a command, the time a key is
  // written with (`ttl` in Redis's time, or a day), and the deadline noted for it.
  std::string deadlines() const { return prefix_ + "deadlines"; }
  StepResult sweep(int64_t now);
  std::string written_ttl(int64_t ttl) const;
  StepResult note_deadline(const std::string& key, int64_t deadline);
  // What a READONLY answer from a redis:// URL's one server means: whose replica it is.
  std::string replica_hint();  // in redis_role.cpp, with connected_replicas
  // How many replicas the primary lists as connected (ROLE); -1 when it does not say.
  int connected_replicas();

  const Hiredis* api_;
  redisContext* context_;
  std::string shown_;
  std::string node_;  // the Sentinels' primary this connection reached
  int wait_s_;        // how long a command's answer may take (redisSetTimeout)
  int wait_replicas_;
  int wait_ms_;
  std::unique_ptr<TraceSink> trace_;
  std::string prefix_;
  bool scratch_ = false;
  bool one_server_;    // a redis:// URL: one server, not followed through a failover
  bool lost_ = false;  // a command found the link lost: never used again
};

// Connects (hiredis, loaded on first use); an unreachable server or a refused password is a
// ledger error (exit 8). A server that accepts and stays silent, past connect_timeout, is
// unavailable (no_answer, exit 75); so is a command whose answer takes longer, later.
Result<std::unique_ptr<RedisStore>> open_redis_store(const RedisLocator& locator);

// A store for one simulated run: its keys live under `prefix` (a name no other run uses), and
// expire on the run's virtual clock, the ":now" each command carries, not on Redis's own:
// - a key written with a time to live is written as the references write it (SET ... PX), and
//   its deadline in virtual time is noted in a sorted set, <prefix>deadlines;
// - before every command, the keys whose deadline is past are deleted (a script), as Redis
//   deletes a key touched past its time. So a lock expires at the same point of every replay,
//   however long the run takes on the wall clock.
// In Redis's own time a scratch key lasts a day: the run deletes its keys itself.
Result<std::unique_ptr<RedisStore>> open_redis_scratch(const RedisLocator& locator,
                                                       std::string prefix);

}  // namespace idemlab
