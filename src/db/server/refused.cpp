// Telling a server that is busy for now from one that refuses for good.
#include "db/server/refused.h"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace idemlab {

Status server_busy(std::string_view shown, std::string_view what_was_met) {
  return Status::unavailable(
      "server_busy",
      fmt::format("{} is busy: {}; nothing was sent: retry later", shown, what_was_met));
}

Status no_answer(std::string_view shown, int seconds) {
  return Status::unavailable(
      "no_answer", fmt::format("no answer from {} within {} s (connect_timeout): nothing was "
                               "sent; retry later",
                               shown, seconds));
}

std::optional<std::string> postgres_refusal(std::string_view message, int connect_timeout_s) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kWords{{
      {"sorry, too many clients already", "it has as many connections as max_connections allows"},
      {"too many connections for role", "the role's CONNECTION LIMIT is reached"},
      {"too many connections for database", "the database's CONNECTION LIMIT is reached"},
      {"remaining connection slots are reserved", "the slots left are reserved for superusers"},
      {"the database system is starting up", "it is starting up"},
      {"the database system is not yet accepting connections", "it is starting up"},
      {"the database system is shutting down", "it is shutting down"},
  }};
  for (const auto& [words, limit] : kWords)
    if (message.find(words) != std::string_view::npos) return std::string(limit);
  // It answers nothing within connect_timeout: a server too busy to accept now, as 250
  // sanitized processes connecting at once on 2 cores showed; a host that does not exist or
  // refuses says so at once.
  if (message.find("timeout expired") != std::string_view::npos)
    return fmt::format("it did not accept the connection within connect_timeout ({} s)",
                       connect_timeout_s);
  return std::nullopt;
}

std::optional<std::string> mariadb_refusal(unsigned error_number, std::string_view message) {
  switch (error_number) {
    case 1040:  // ER_CON_COUNT_ERROR
      return "it has as many connections as max_connections allows";
    case 1203:  // ER_TOO_MANY_USER_CONNECTIONS
      return "the user's max_user_connections is reached";
    case 1226: {  // ER_USER_LIMIT_REACHED: "... has exceeded the 'NAME' resource (current ...)"
      constexpr std::string_view kBefore = "exceeded the '";
      const size_t at = message.find(kBefore);
      const size_t open = at == std::string_view::npos ? at : at + kBefore.size() - 1;
      const size_t close = open == std::string_view::npos ? open : message.find('\'', open + 1);
      if (close == std::string_view::npos) return "an account limit is reached";
      return fmt::format("the account's {} is reached", message.substr(open + 1, close - open - 1));
    }
    case 1053:  // ER_SERVER_SHUTDOWN
      return "it is shutting down";
    default:
      return std::nullopt;
  }
}

}  // namespace idemlab
