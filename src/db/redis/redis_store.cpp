// hiredis: the guard statements as Redis commands and Lua scripts.
#include "db/redis/redis_store.h"

#include <fmt/format.h>
#include <hiredis/hiredis.h>

#include <cerrno>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/interrupt.h"
#include "db/connection.h"
#include "db/redis/hiredis.h"
#include "db/redis/redis_connect.h"
#include "db/server/socket_wait.h"

namespace idemlab {

namespace {

// What a Redis error answer means for the attempt. READONLY: this server is a replica now (a
// failover moved the primary): nothing was written, the link is done for, and a new connection
// asks the Sentinels again. NOREPLICAS (min-replicas-to-write), MASTERDOWN, LOADING and BUSY: the
// server cannot take the write now; retry later, like a full or busy server. Neither is a bug, nor
// a server that cannot be used.
StepCode error_code(std::string_view error) {
  if (error.starts_with("READONLY")) return StepCode::kReadOnly;
  for (std::string_view busy : {"NOREPLICAS", "MASTERDOWN", "LOADING", "BUSY"})
    if (error.starts_with(busy)) return StepCode::kBusy;
  return StepCode::kError;
}

// How long a used token's note (who used it) outlives the token: a day.
constexpr int64_t kUsedNoteMs = 86'400'000;

// Deletes the token; only if it was there, notes who used it. 1: consumed, 0: already gone.
constexpr const char* kConsumeScript =
    "if redis.call('DEL', KEYS[1]) == 1 then "
    "redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2]) return 1 end return 0";
// check-then-delete: the DEL's count is not looked at; whoever checked first goes on.
constexpr const char* kConsumeUncheckedScript =
    "redis.call('DEL', KEYS[1]) redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2]) return 1";
// The token's remaining time (-2: gone) and who used it, read together.
constexpr const char* kSelectTokenScript =
    "return {redis.call('PTTL', KEYS[1]), redis.call('GET', KEYS[2])}";
// A scratch store's clock (open_redis_scratch): the run's keys whose virtual deadline is past
// `now` are deleted before every command, as Redis deletes a key touched past its time. Redis
// keeps a key while now <= its deadline, so only deadlines strictly before now are due.
constexpr const char* kSweepScript =
    "local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1]) "
    "for _, key in ipairs(due) do redis.call('DEL', key) end "
    "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1]) return #due";
// A scratch store's token read: its virtual deadline (if the token is there) and who used it.
constexpr const char* kSelectScratchTokenScript =
    "local deadline = false "
    "if redis.call('EXISTS', KEYS[1]) == 1 then deadline = redis.call('ZSCORE', KEYS[3], KEYS[1]) "
    "end return {deadline, redis.call('GET', KEYS[2])}";
// Every key a scratch run wrote, and the list of them.
constexpr const char* kClearScratchScript =
    "local keys = redis.call('ZRANGE', KEYS[1], 0, -1) "
    "for _, key in ipairs(keys) do redis.call('DEL', key) end "
    "redis.call('DEL', KEYS[1]) return #keys";
// How long a scratch key lasts in Redis's own time: a day. Its run deletes it at the end (an
// interrupted run too); this only bounds what a killed run leaves behind.
constexpr int64_t kScratchKeepMs = 86'400'000;

// Takes the lock if free; a grant also counts one more on the lock's fence counter and returns
// it (lock-table --fence), 0 when the lock is taken. The counter never expires: a fence must not
// go back (though a failover can take it back to what the replica had). A scratch store notes
// both keys' deadlines in the same script (ARGV[3], ARGV[4]), so no key escapes its clean-up.
constexpr const char* kAcquireScript =
    "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then "
    "local fence = redis.call('INCR', KEYS[2]) "
    "if ARGV[3] then redis.call('ZADD', KEYS[3], ARGV[3], KEYS[1], ARGV[4], KEYS[2]) end "
    "return fence end return 0";

// Releases the lock only for its owner.
constexpr const char* kReleaseScript =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end "
    "return 0";

// "transfer:<source>:<biz_seq>" (the lock's name in the ledger) -> "lock:<source>:<biz_seq>".
std::string lock_key(const Binds& binds) {
  std::string name = bind_text(binds, ":name");
  constexpr std::string_view kPrefix = "transfer:";
  return "lock:" + (name.starts_with(kPrefix) ? name.substr(kPrefix.size()) : name);
}

}  // namespace

RedisStore::~RedisStore() {
  api_->free(context_);
}

bool RedisStore::hung_up() const {
  return idemlab::hung_up(context_->fd);
}

void RedisStore::free_reply(redisReply* reply) const {
  api_->free_reply(reply);
}

StepResult RedisStore::eval(const char* script, std::vector<std::string> keys_then_args, int keys,
                            redisReply** reply) {
  std::vector<std::string> words{"EVAL", script, std::to_string(keys)};
  words.insert(words.end(), keys_then_args.begin(), keys_then_args.end());
  return command(words, reply);
}

std::string RedisStore::written_ttl(int64_t ttl) const {
  return std::to_string(scratch_ ? kScratchKeepMs : ttl);
}

StepResult RedisStore::sweep(int64_t now) {
  redisReply* reply = nullptr;
  StepResult result = eval(kSweepScript, {deadlines(), std::to_string(now)}, 1, &reply);
  if (reply) api_->free_reply(reply);
  return result;
}

StepResult RedisStore::note_deadline(const std::string& key, int64_t deadline) {
  if (!scratch_) return {};
  redisReply* reply = nullptr;
  StepResult result = command({"ZADD", deadlines(), std::to_string(deadline), key}, &reply);
  if (reply) api_->free_reply(reply);
  return result;
}

Status RedisStore::clear_scratch() {
  redisReply* reply = nullptr;
  StepResult result = eval(kClearScratchScript, {deadlines()}, 1, &reply);
  if (reply) api_->free_reply(reply);
  if (!result.ok()) return step_error(*this, result);
  return Status::ok();
}

StepResult RedisStore::command(const std::vector<std::string>& words, redisReply** reply) {
  StepResult result = send(words, reply);
  lost_ |= result.link_lost();
  return result;
}

StepResult RedisStore::send(const std::vector<std::string>& words, redisReply** reply) {
  if (trace_) {
    std::string line;
    for (const std::string& word : words) line += (line.empty() ? "" : " ") + word;
    (*trace_)(line);
  }
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const std::string& word : words) {
    argv.push_back(word.data());
    lengths.push_back(word.size());
  }
  {
    WaitingSocket waiting(context_->fd);  // a signal to stop ends the wait at once
    errno = 0;
    *reply = static_cast<redisReply*>(
        api_->command_argv(context_, static_cast<int>(argv.size()), argv.data(), lengths.data()));
  }
  if (!*reply) {
    // A socket timeout (redisSetTimeout): the server took the command and said nothing.
    const bool silent = errno == EAGAIN || errno == EWOULDBLOCK;
    return {StepCode::kConnectionLost, 0, std::nullopt,
            silent ? fmt::format("no answer from {} within {} s", shown_, wait_s_)
                   : std::string(context_->errstr)};
  }
  if ((*reply)->type == REDIS_REPLY_ERROR) {
    // Redis repeats the start of an unknown command's words: a token among them is not shown.
    const std::string said = (*reply)->str;
    StepResult failed{error_code(said), 0, std::nullopt, said.substr(0, said.find(", with args"))};
    api_->free_reply(*reply);
    *reply = nullptr;
    if (failed.code == StepCode::kReadOnly && one_server_) failed.error += replica_hint();
    return failed;
  }
  return {};
}

StepResult RedisStore::token_statement(Stmt id, const Binds& binds) {
  const std::string token = prefix_ + "token:" + bind_text(binds, ":token");
  const std::string used = prefix_ + "token-used:" + bind_text(binds, ":token");
  const std::string user = bind_text(binds, ":source") + "\n" + bind_text(binds, ":biz_seq");
  const int64_t now = bind_int(binds, ":now");
  redisReply* reply = nullptr;
  StepResult result;
  if (id == Stmt::kInsertToken) {
    const int64_t expires = bind_int(binds, ":expires");
    const int64_t ttl = std::max<int64_t>(1, expires - now);
    result = command({"SET", token, std::to_string(now), "PX", written_ttl(ttl)}, &reply);
    if (result.ok()) result.changes = 1;
    if (result.ok())
      if (StepResult noted = note_deadline(token, now + ttl); !noted.ok()) result = noted;
  } else if (id == Stmt::kSelectToken) {
    if (scratch_)
      result = eval(kSelectScratchTokenScript, {token, used, deadlines()}, 3, &reply);
    else
      result = eval(kSelectTokenScript, {token, used}, 2, &reply);
    if (reply && reply->elements == 2) {
      const redisReply* left = reply->element[0];
      const redisReply* by = reply->element[1];
      std::optional<int64_t> expires;
      if (scratch_ && left->type == REDIS_REPLY_STRING)
        expires = std::stoll(std::string(left->str, left->len));
      else if (!scratch_ && (left->integer >= 0 || left->integer == -1))
        expires = now + (left->integer == -1 ? 86'400'000 : left->integer);
      if (expires)
        result.row = Row{*expires, Value(), Value(), Value()};
      else if (by->type == REDIS_REPLY_STRING) {
        const std::string note(by->str, by->len);
        const size_t cut = note.find('\n');
        result.row = Row{int64_t{0}, int64_t{1}, note.substr(cut + 1), note.substr(0, cut)};
      }
    }
  } else {
    result = eval(id == Stmt::kConsumeToken ? kConsumeScript : kConsumeUncheckedScript,
                  {token, used, user, written_ttl(kUsedNoteMs)}, 2, &reply);
    if (reply) result.changes = static_cast<int>(reply->integer);
    if (result.changes == 1)
      if (StepResult noted = note_deadline(used, now + kUsedNoteMs); !noted.ok()) result = noted;
  }
  if (reply) api_->free_reply(reply);
  return result;
}

StepResult RedisStore::lock_statement(Stmt id, const Binds& binds) {
  const std::string key = prefix_ + lock_key(binds);
  const std::string owner = bind_text(binds, ":owner");
  redisReply* reply = nullptr;
  StepResult result;
  if (id == Stmt::kAcquireLock) {
    const int64_t now = bind_int(binds, ":now");
    const int64_t ttl = std::max<int64_t>(1, bind_int(binds, ":until") - now);
    const std::string fence = prefix_ + "fence:" + key.substr(prefix_.size() + 5);
    std::vector<std::string> words{key, fence, deadlines(), owner, written_ttl(ttl)};
    if (scratch_) {
      words.push_back(std::to_string(now + ttl));
      words.push_back(std::to_string(now + kScratchKeepMs));
    }
    result = eval(kAcquireScript, std::move(words), 3, &reply);
    if (reply && reply->integer > 0) {
      result.changes = 1;
      result.row = Row{static_cast<int64_t>(reply->integer)};
    }
  } else if (id == Stmt::kCheckLockOwner) {
    result = command({"GET", key}, &reply);
    if (reply)
      result.row = Row{int64_t{reply->type == REDIS_REPLY_STRING &&
                               std::string_view(reply->str, reply->len) == owner}};
  } else if (id == Stmt::kReleaseLock) {
    result = eval(kReleaseScript, {key, owner}, 1, &reply);
    if (reply) result.changes = static_cast<int>(reply->integer);
  } else {
    result = command({"DEL", key}, &reply);
    if (reply) result.changes = static_cast<int>(reply->integer);
  }
  if (reply) api_->free_reply(reply);
  return result;
}

StepResult RedisStore::run(Stmt id, const Binds& binds) {
  if (!statement_is_guard(id))
    return {StepCode::kError, 0, std::nullopt,
            fmt::format("{} is not a guard statement: a Redis store cannot run it",
                        statement_name(id))};
  if (scratch_)
    if (StepResult swept = sweep(bind_int(binds, ":now")); !swept.ok()) return swept;
  const bool reads = id == Stmt::kSelectToken || id == Stmt::kCheckLockOwner;
  StepResult result = id == Stmt::kInsertToken || id == Stmt::kSelectToken ||
                              id == Stmt::kConsumeToken || id == Stmt::kConsumeTokenUnchecked
                          ? token_statement(id, binds)
                          : lock_statement(id, binds);
  if (reads || wait_replicas_ == 0 || !result.ok() || result.changes == 0) return result;
  return replicated(std::move(result));
}

std::string_view RedisStore::statement_text(Stmt id) const {
  switch (id) {
    case Stmt::kInsertToken:
      return "SET token:<token> <now> PX <ttl>";
    case Stmt::kSelectToken:
      return scratch_ ? kSelectScratchTokenScript : kSelectTokenScript;
    case Stmt::kConsumeToken:
      return kConsumeScript;
    case Stmt::kConsumeTokenUnchecked:
      return kConsumeUncheckedScript;
    case Stmt::kAcquireLock:
      return kAcquireScript;
    case Stmt::kCheckLockOwner:
      return "GET lock:<source>:<biz_seq>";
    case Stmt::kReleaseLock:
      return kReleaseScript;
    case Stmt::kReleaseLockAnyOwner:
      return "DEL lock:<source>:<biz_seq>";
    default:
      return "";
  }
}

Result<std::unique_ptr<RedisStore>> open_redis_store(const RedisLocator& locator) {
  const Hiredis* api = nullptr;
  RETURN_IF_ERROR(load_hiredis(&api));
  ASSIGN_OR_RETURN(redisContext * context, connect_redis(*api, locator));
  auto store = std::make_unique<RedisStore>(api, context, locator);
  if (!locator.sentinels.empty() && context->tcp.host)
    store->set_node(fmt::format("{}:{}", context->tcp.host, context->tcp.port));
  std::vector<std::vector<std::string>> setup;
  if (!locator.password.empty()) setup.push_back({"AUTH", locator.password});
  if (locator.database != 0) setup.push_back({"SELECT", std::to_string(locator.database)});
  setup.push_back({"ROLE"});
  for (const auto& words : setup) {
    redisReply* reply = nullptr;
    StepResult result = store->command(words, &reply);
    // A Sentinel answers ROLE too, as "sentinel": it keeps no tokens.
    const bool sentinel = reply && reply->type == REDIS_REPLY_ARRAY && reply->elements > 0 &&
                          reply->element[0]->str &&
                          std::string_view(reply->element[0]->str) == "sentinel";
    if (reply) api->free_reply(reply);
    if (sentinel)
      return Status::ledger(fmt::format(
          "{} is a Redis Sentinel, which keeps no tokens or locks: name the primary it watches "
          "as redis-sentinel://HOST:PORT[,HOST:PORT...]/MASTER",
          locator.shown));
    if (!result.ok()) RETURN_IF_ERROR(check_interrupt());  // a signal cut the wait short
    if (result.code == StepCode::kConnectionLost)
      return Status::unavailable("no_answer", result.error);
    if (!result.ok())
      return Status::ledger(fmt::format("cannot use {}: {}", locator.shown, result.error));
  }
  return store;
}

Result<std::unique_ptr<RedisStore>> open_redis_scratch(const RedisLocator& locator,
                                                       std::string prefix) {
  ASSIGN_OR_RETURN(std::unique_ptr<RedisStore> store, open_redis_store(locator));
  store->use_scratch(std::move(prefix));
  RETURN_IF_ERROR(store->clear_scratch());
  return store;
}

}  // namespace idemlab
