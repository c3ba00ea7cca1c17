// Problem details (RFC 9457): every error `idemlab serve` answers is application/problem+json,
// with a `type` naming its kind, documented at that address (GET /problems/NAME), so that a
// client branches on the type, never on the words.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/exit_code.h"
#include "core/status.h"
#include "http/listener.h"

namespace idemlab {

enum class Problem {
  kMissingIdempotencyKey,
  kInvalidIdempotencyKey,
  kIdempotencyKeyReused,
  kRequestInProgress,
  kUnsupportedMediaType,
  kMalformedBody,
  kInvalidField,
  kPayloadTooLarge,
  kNotFound,
  kMethodNotAllowed,
  kInsufficientFunds,
  kUnknownAccount,
  kSameAccount,
  kOverLimit,
  kTokenRequired,
  kTokenUnknown,
  kTokenUsed,
  kTokenExpired,
  kServerBusy,
  kOutcomeUnknown,
  kLedgerUnavailable,
  kInternal,
};

struct ProblemInfo {
  Problem problem;
  std::string_view name;  // its type is /problems/NAME
  int status;
  ExitCode exit_code;  // what `idemlab http` exits with when it gets this problem
  std::string_view title;
  std::string_view means;  // what happened and what a client does, for GET /problems/NAME
};
std::span<const ProblemInfo> problem_table();
const ProblemInfo& problem_info(Problem problem);
const ProblemInfo* find_problem(std::string_view name);

// The reply: its status, the problem+json body with `detail`, and `headers` besides.
HttpReply problem_reply(Problem problem, std::string_view detail,
                        std::vector<std::pair<std::string, std::string>> headers = {});

// The reply to an error that stopped a request before it had an answer: the front door's
// refusals (invalid-field; token-required), a busy or gone server (server-busy), a ledger that
// cannot be used, or a bug.
HttpReply status_reply(const Status& status);

// GET /problems and GET /problems/NAME: what each type means, as text.
HttpReply problem_page(std::string_view name);

// A JSON body, one line. Text the client sent that is not UTF-8 (echoed in a detail) is
// written with U+FFFD in its place, never thrown at.
template <class Json>
std::string json_body(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace idemlab
