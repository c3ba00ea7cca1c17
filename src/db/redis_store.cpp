// hiredis: the guard statements as Redis commands and Lua scripts.
#include "db/redis_store.h"

#include <fmt/format.h>
#include <hiredis/hiredis.h>

#include <charconv>
#include <vector>

#include "db/client_library.h"
#include "db/connection.h"
#include "db/locator.h"

namespace idemlab {

namespace {

struct Hiredis {
  decltype(&redisConnectWithTimeout) connect;
  decltype(&redisConnectUnixWithTimeout) connect_unix;
  decltype(&redisCommandArgv) command_argv;
  decltype(&freeReplyObject) free_reply;
  decltype(&redisFree) free;
};

Status load_hiredis(const Hiredis** out) {
  static Hiredis api;
  static bool resolved = false;
  ClientLibrary* lib = nullptr;
  if (Status status = ClientLibrary::load("libhiredis.so.0.14", "libhiredis0.14", &lib);
      !status.is_ok())
    return status;
  if (!resolved) {
    if (!resolve(*lib, "redisConnectWithTimeout", &api.connect) ||
        !resolve(*lib, "redisConnectUnixWithTimeout", &api.connect_unix) ||
        !resolve(*lib, "redisCommandArgv", &api.command_argv) ||
        !resolve(*lib, "freeReplyObject", &api.free_reply) ||
        !resolve(*lib, "redisFree", &api.free))
      return Status::ledger("libhiredis lacks a function idemlab needs");
    resolved = true;
  }
  *out = &api;
  return Status::ok();
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
// Releases the lock only for its owner.
constexpr const char* kReleaseScript =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end "
    "return 0";

std::string text_bind(const Binds& binds, const char* name) {
  for (const Bind& bind : binds)
    if (std::string_view(bind.name) == name) {
      if (const auto* number = std::get_if<int64_t>(&bind.value)) return std::to_string(*number);
      return as_text(bind.value);
    }
  return "";
}
int64_t int_bind(const Binds& binds, const char* name) {
  for (const Bind& bind : binds)
    if (std::string_view(bind.name) == name) return as_int(bind.value);
  return 0;
}
// "transfer:<source>:<biz_seq>" (the lock's name in the ledger) -> "lock:<source>:<biz_seq>".
std::string lock_key(const Binds& binds) {
  std::string name = text_bind(binds, ":name");
  constexpr std::string_view kPrefix = "transfer:";
  return "lock:" + (name.starts_with(kPrefix) ? name.substr(kPrefix.size()) : name);
}

class RedisStore final : public Backend {
 public:
  RedisStore(const Hiredis* api, redisContext* context, std::string shown)
      : api_(api), context_(context), shown_(std::move(shown)) {}
  ~RedisStore() override { api_->free(context_); }

  StepResult run(Stmt id, const Binds& binds) override;
  std::string_view statement_text(Stmt id) const override;
  StepResult query(std::string_view, const Binds&, const RowSink*) override {
    return {StepCode::kError, 0, std::nullopt, "a Redis store runs no SQL"};
  }
  Status exec_script(const char*) override { return Status::internal("a Redis store runs no SQL"); }
  bool in_transaction() const override { return false; }
  void rollback_if_open() override {}
  void set_trace(TraceSink sink) override {
    trace_ = sink ? std::make_unique<TraceSink>(std::move(sink)) : nullptr;
  }
  const std::string& shown() const override { return shown_; }
  std::string isolation() const override { return ""; }

  // Sends one command; `reply` is owned by the caller (free_reply), nullptr on a lost link.
  StepResult command(const std::vector<std::string>& words, redisReply** reply);

 private:
  StepResult eval(const char* script, std::vector<std::string> keys_then_args, int keys,
                  redisReply** reply) {
    std::vector<std::string> words{"EVAL", script, std::to_string(keys)};
    words.insert(words.end(), keys_then_args.begin(), keys_then_args.end());
    return command(words, reply);
  }
  StepResult token_statement(Stmt id, const Binds& binds);
  StepResult lock_statement(Stmt id, const Binds& binds);

  const Hiredis* api_;
  redisContext* context_;
  std::string shown_;
  std::unique_ptr<TraceSink> trace_;
};

StepResult RedisStore::command(const std::vector<std::string>& words, redisReply** reply) {
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
  *reply = static_cast<redisReply*>(
      api_->command_argv(context_, static_cast<int>(argv.size()), argv.data(), lengths.data()));
  if (!*reply) return {StepCode::kConnectionLost, 0, std::nullopt, context_->errstr};
  if ((*reply)->type == REDIS_REPLY_ERROR) {
    StepResult failed{StepCode::kError, 0, std::nullopt, (*reply)->str};
    api_->free_reply(*reply);
    *reply = nullptr;
    return failed;
  }
  return {};
}

StepResult RedisStore::token_statement(Stmt id, const Binds& binds) {
  const std::string token = "token:" + text_bind(binds, ":token");
  const std::string used = "token-used:" + text_bind(binds, ":token");
  const std::string user = text_bind(binds, ":source") + "\n" + text_bind(binds, ":biz_seq");
  const int64_t now = int_bind(binds, ":now");
  redisReply* reply = nullptr;
  StepResult result;
  if (id == Stmt::kInsertToken) {
    const int64_t ttl = std::max<int64_t>(1, int_bind(binds, ":expires") - now);
    result = command({"SET", token, std::to_string(now), "PX", std::to_string(ttl)}, &reply);
  } else if (id == Stmt::kSelectToken) {
    result = eval(kSelectTokenScript, {token, used}, 2, &reply);
    if (reply && reply->elements == 2) {
      const long long ttl = reply->element[0]->integer;
      const redisReply* by = reply->element[1];
      if (ttl >= 0 || ttl == -1)
        result.row = Row{now + (ttl == -1 ? 86'400'000 : ttl), Value(), Value(), Value()};
      else if (by->type == REDIS_REPLY_STRING) {
        const std::string note(by->str, by->len);
        const size_t cut = note.find('\n');
        result.row = Row{int64_t{0}, int64_t{1}, note.substr(cut + 1), note.substr(0, cut)};
      }
    }
  } else {
    result = eval(id == Stmt::kConsumeToken ? kConsumeScript : kConsumeUncheckedScript,
                  {token, used, user, std::to_string(kUsedNoteMs)}, 2, &reply);
    if (reply) result.changes = static_cast<int>(reply->integer);
  }
  if (reply) api_->free_reply(reply);
  return result;
}

StepResult RedisStore::lock_statement(Stmt id, const Binds& binds) {
  const std::string key = lock_key(binds);
  const std::string owner = text_bind(binds, ":owner");
  redisReply* reply = nullptr;
  StepResult result;
  if (id == Stmt::kAcquireLock) {
    const int64_t ttl = std::max<int64_t>(1, int_bind(binds, ":until") - int_bind(binds, ":now"));
    result = command({"SET", key, owner, "NX", "PX", std::to_string(ttl)}, &reply);
    if (reply) result.changes = reply->type == REDIS_REPLY_STATUS ? 1 : 0;
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
  switch (id) {
    case Stmt::kInsertToken:
    case Stmt::kSelectToken:
    case Stmt::kConsumeToken:
    case Stmt::kConsumeTokenUnchecked:
      return token_statement(id, binds);
    default:
      return lock_statement(id, binds);
  }
}

std::string_view RedisStore::statement_text(Stmt id) const {
  switch (id) {
    case Stmt::kInsertToken:
      return "SET token:<token> <now> PX <ttl>";
    case Stmt::kSelectToken:
      return kSelectTokenScript;
    case Stmt::kConsumeToken:
      return kConsumeScript;
    case Stmt::kConsumeTokenUnchecked:
      return kConsumeUncheckedScript;
    case Stmt::kAcquireLock:
      return "SET lock:<source>:<biz_seq> <owner> NX PX <ttl>";
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

bool parse_number(std::string_view text, int* out) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

Status parse_redis_locator(std::string_view text, RedisLocator* out) {
  RedisLocator locator;
  locator.shown = redact_locator(text);
  const auto bad = [&](std::string_view why) {
    return Status::usage(fmt::format("{}: {}", locator.shown, why));
  };
  if (!text.starts_with("redis://"))
    return bad("expected redis:///path/to/socket or redis://host:port/N");
  std::string_view rest = text.substr(8);
  if (rest.starts_with("/")) {
    locator.socket = std::string(rest);
    *out = std::move(locator);
    return Status::ok();
  }
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) {
    const std::string_view user_info = rest.substr(0, at);
    const size_t colon = user_info.find(':');
    locator.password =
        std::string(colon == std::string_view::npos ? "" : user_info.substr(colon + 1));
    rest = rest.substr(at + 1);
  }
  const size_t slash = rest.find('/');
  if (slash != std::string_view::npos &&
      (!parse_number(rest.substr(slash + 1), &locator.database) || locator.database < 0))
    return bad("the database is a number, e.g. redis://127.0.0.1:6379/0");
  std::string_view host_port = rest.substr(0, slash);
  const size_t colon = host_port.rfind(':');
  if (colon != std::string_view::npos) {
    if (!parse_number(host_port.substr(colon + 1), &locator.port) || locator.port < 1 ||
        locator.port > 65535)
      return bad("the port is a number from 1 to 65535");
    host_port = host_port.substr(0, colon);
  }
  if (host_port.empty()) return bad("no host");
  locator.host = std::string(host_port);
  *out = std::move(locator);
  return Status::ok();
}

Status open_redis_store(const RedisLocator& locator, Connection* out) {
  const Hiredis* api = nullptr;
  if (Status status = load_hiredis(&api); !status.is_ok()) return status;
  const timeval timeout{10, 0};
  redisContext* context = locator.socket.empty()
                              ? api->connect(locator.host.c_str(), locator.port, timeout)
                              : api->connect_unix(locator.socket.c_str(), timeout);
  if (!context || context->err) {
    const std::string why = context ? context->errstr : "out of memory";
    if (context) api->free(context);
    return Status::ledger(fmt::format("cannot connect to {}: {}", locator.shown, why));
  }
  auto store = std::make_unique<RedisStore>(api, context, locator.shown);
  std::vector<std::vector<std::string>> setup;
  if (!locator.password.empty()) setup.push_back({"AUTH", locator.password});
  if (locator.database != 0) setup.push_back({"SELECT", std::to_string(locator.database)});
  setup.push_back({"PING"});
  for (const auto& words : setup) {
    redisReply* reply = nullptr;
    StepResult result = store->command(words, &reply);
    if (reply) api->free_reply(reply);
    if (!result.ok())
      return Status::ledger(fmt::format("cannot use {}: {}", locator.shown, result.error));
  }
  out->backend_ = std::move(store);
  return Status::ok();
}

}  // namespace idemlab
