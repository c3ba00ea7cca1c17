// A COMMIT whose wait for a synchronous standby was cancelled.
#include "db/postgres/commit_notice.h"

#include <fmt/format.h>

#include <string_view>

namespace idemlab {

void record_notice(void* arg, const char* message) {
  auto* notice = static_cast<CommitNotice*>(arg);
  const std::string_view text = message ? message : "";
  // syncrep.c's words, on a cancel (WARNING, 01000) and on a terminate (FATAL, 57P01).
  if (text.find("might not have been replicated") == std::string_view::npos) return;
  notice->unreplicated = true;
  notice->text = std::string(text.substr(0, text.find('\n')));
}

StepResult unreplicated_commit(StepResult result, CommitNotice* notice) {
  if (!notice->unreplicated) return result;
  notice->unreplicated = false;
  if (!result.ok()) return result;
  return {StepCode::kConnectionLost, 0, std::nullopt,
          fmt::format("{} (committed on the primary, but might not have been replicated to "
                      "the synchronous standby: a failover may lose it)",
                      notice->text)};
}

}  // namespace idemlab
