// Connecting to Redis directly or through its Sentinels.
#include "db/redis/redis_connect.h"

#include <fmt/format.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace idemlab {

namespace {

// One connection, bounded; `where` names it in messages.
Result<redisContext*> connect_one(const Hiredis& api, const RedisLocator& locator,
                                  const std::string& host, int port, const std::string& where) {
  const timeval wait{locator.connect_timeout_s, 0};
  redisContext* context = locator.socket.empty() || !host.empty()
                              ? api.connect(host.c_str(), port, wait)
                              : api.connect_unix(locator.socket.c_str(), wait);
  if (!context || context->err) {
    const std::string why = context ? context->errstr : "out of memory";
    const bool silent = context && std::string_view(why).find("timed out") != std::string::npos;
    if (context) api.free(context);
    if (silent)
      return Status::unavailable("no_answer", fmt::format("{} did not accept the connection "
                                                          "within connect_timeout ({} s)",
                                                          where, locator.connect_timeout_s));
    return Status::ledger(fmt::format("cannot connect to {}: {}", where, why));
  }
  api.set_timeout(context, wait);  // every answer after this is bounded too
  return context;
}

// A command's reply, owned by the caller; nullptr on a lost or silent link.
redisReply* ask(const Hiredis& api, redisContext* context, std::vector<std::string> words) {
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const std::string& word : words) {
    argv.push_back(word.c_str());
    lengths.push_back(word.size());
  }
  return static_cast<redisReply*>(
      api.command_argv(context, static_cast<int>(argv.size()), argv.data(), lengths.data()));
}

// What one Sentinel said when asked for the primary.
struct Named {
  enum Verdict { kNamed, kNoSuchMaster, kNotSentinel, kUnreachable } verdict = kUnreachable;
  std::string host;
  int port = 0;
  std::string said;  // kNotSentinel: what it answered instead, without the words sent
};

// Asks one Sentinel for the primary's address. A Sentinel that monitors no such master answers
// nil, a server that is no Sentinel an error (or nothing Redis would say): both are definite.
Named named_primary(const Hiredis& api, const RedisLocator& locator,
                    const std::pair<std::string, int>& sentinel) {
  const std::string where = fmt::format("Sentinel {}:{}", sentinel.first, sentinel.second);
  Result<redisContext*> context = connect_one(api, locator, sentinel.first, sentinel.second, where);
  if (!context.is_ok()) return {};
  redisReply* reply =
      ask(api, *context, {"SENTINEL", "get-master-addr-by-name", locator.master_name});
  Named out;
  if (reply && reply->type == REDIS_REPLY_ARRAY && reply->elements == 2) {
    out = {Named::kNamed, reply->element[0]->str, std::atoi(reply->element[1]->str), ""};
  } else if (reply && reply->type == REDIS_REPLY_NIL) {
    out.verdict = Named::kNoSuchMaster;
  } else if (reply || (*context)->err == REDIS_ERR_PROTOCOL) {
    out.verdict = Named::kNotSentinel;
    const std::string said = reply && reply->str ? reply->str : (*context)->errstr;
    out.said = said.substr(0, said.find(", with args"));
  }
  if (reply) api.free_reply(reply);
  api.free(*context);
  return out;
}

// When every Sentinel answered, and none named a primary, the answer is definite: the URL is
// wrong, not the moment (exit 8 at once, not 75 after the wait).
std::optional<Status> definite_refusal(const RedisLocator& locator,
                                       const std::vector<Named>& answers) {
  std::string not_sentinels;
  for (const Named& named : answers) {
    if (named.verdict == Named::kNamed || named.verdict == Named::kUnreachable) return std::nullopt;
    if (named.verdict == Named::kNotSentinel)
      not_sentinels += fmt::format("{}{} ({})", not_sentinels.empty() ? "" : ", ",
                                   locator.sentinels[&named - answers.data()].second, named.said);
  }
  if (!not_sentinels.empty())
    return Status::ledger(
        fmt::format("{}: no Sentinel answers there: port {} answered as no "
                    "Sentinel does",
                    locator.shown, not_sentinels));
  return Status::ledger(fmt::format(
      "{}: its Sentinels monitor no master named '{}' (SENTINEL get-master-addr-by-name)",
      locator.shown, locator.master_name));
}

// True when the server says it is a primary (ROLE's first word).
bool answers_as_primary(const Hiredis& api, redisContext* context) {
  redisReply* reply = ask(api, context, {"ROLE"});
  const bool primary = reply && reply->type == REDIS_REPLY_ARRAY && reply->elements > 0 &&
                       reply->element[0]->str &&
                       std::string_view(reply->element[0]->str) == "master";
  if (reply) api.free_reply(reply);
  return primary;
}

// One round: each Sentinel in turn, until one names a primary that answers as one. `tried`
// keeps why the last named primary was not taken; `answers` what each Sentinel said.
Result<redisContext*> primary_by_sentinels(const Hiredis& api, const RedisLocator& locator,
                                           std::string* tried, std::vector<Named>* answers) {
  answers->clear();
  for (const auto& sentinel : locator.sentinels) {
    answers->push_back(named_primary(api, locator, sentinel));
    const Named& named = answers->back();
    if (named.verdict != Named::kNamed) continue;
    const std::string where = fmt::format("{}:{} (the primary {} named by {})", named.host,
                                          named.port, locator.master_name, locator.shown);
    Result<redisContext*> context = connect_one(api, locator, named.host, named.port, where);
    if (!context.is_ok()) {
      *tried = context.status().message();
      continue;
    }
    if (answers_as_primary(api, *context)) return context;
    api.free(*context);
    *tried = fmt::format("{}:{} no longer answers as a primary", named.host, named.port);
  }
  return Status::unavailable("no_answer", "");
}

}  // namespace

// Through Sentinels, rounds are repeated until connect_timeout: while a failover is under way
// they name a primary that is down, or one not yet promoted, for a second or two.
Result<redisContext*> connect_redis(const Hiredis& api, const RedisLocator& locator) {
  if (locator.sentinels.empty())
    return connect_one(api, locator, locator.host, locator.port, locator.shown);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(locator.connect_timeout_s);
  std::string tried;
  std::vector<Named> answers;
  for (;;) {
    Result<redisContext*> context = primary_by_sentinels(api, locator, &tried, &answers);
    if (context.is_ok()) return context;
    if (std::optional<Status> definite = definite_refusal(locator, answers)) return *definite;
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return Status::unavailable(
      "no_answer",
      fmt::format("no Sentinel of {} named a primary for {} that answers as one within "
                  "connect_timeout ({} s){}",
                  locator.shown, locator.master_name, locator.connect_timeout_s,
                  tried.empty() ? "" : " (" + tried + ")"));
}

}  // namespace idemlab
