// The checks before the strategy, and the strategy.
#include "attempt/checked_transfer.h"

#include "strategies/common.h"

namespace idemlab {

namespace {
// Bind lists are built outside coroutine bodies: GCC 12 miscompiles braced lists inside them.
Binds account_binds(const TransferRequest& request) {
  return {{":from", request.from}, {":to", request.to}};
}
}  // namespace

Task<Answer> checked_transfer(Session& session, const Strategy& strategy,
                              const TransferRequest& request) {
  if (request.from == request.to) co_return Answer::of(Outcome::kRejected, reason::kSameAccount);
  // A request without its key cannot be told from its repeats: refuse it, unless the pitfall
  // lets it through to a unique index that a NULL never conflicts with.
  if (request.key_missing && !session.has(Pitfall::kMissingKey))
    co_return Answer::of(Outcome::kRejected, reason::kMissingKey);
  StepResult accounts =
      co_await session.exec("check_accounts", Stmt::kCheckAccounts, account_binds(request));
  if (!accounts.ok()) co_return co_await fail(session, accounts);
  if (!accounts.row || as_int((*accounts.row)[0]) == 0 || as_int((*accounts.row)[1]) == 0)
    co_return Answer::of(Outcome::kRejected, reason::kUnknownAccount);
  // Like an unknown account, an amount above the payer's limit is refused before the guards,
  // so nothing is recorded: a repeat after the limit changed is served afresh.
  const Value& limit = (*accounts.row)[2];
  if (!is_null(limit) && request.amount_minor > as_int(limit))
    co_return Answer::of(Outcome::kRejected, reason::kOverLimit);
  co_return co_await strategy.attempt(session, request);
}

bool is_input_rejection(const Answer& answer) {
  return answer.outcome == Outcome::kRejected && !answer.replayed &&
         (answer.reason == reason::kSameAccount || answer.reason == reason::kUnknownAccount ||
          answer.reason == reason::kMissingKey || answer.reason == reason::kOverLimit);
}

}  // namespace idemlab
