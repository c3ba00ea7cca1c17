// The ledger's resources beside POST /transfers, the smallest real HTTP resources, to show
// which methods are idempotent by their meaning: GET reads; PUT sets a limit absolutely and
// DELETE removes it (a repeat leaves the same state). Served by serve and `idemlab http` alike
// (transfer_server.h), each answer built from what the ledger says afterwards.
//
//   GET    /accounts              every account's balance
//   GET    /accounts/NAME         the balance and limit
//   PUT    /accounts/NAME/limit   body amount=50.00
//   DELETE /accounts/NAME/limit
//   GET    /transfers/ID          the transfer's state (source "http")
#pragma once

#include "core/clock.h"
#include "db/connection.h"
#include "http/listener.h"

namespace idemlab {

// The source of every transfer POST /transfers makes, which GET /transfers/ID looks up.
inline constexpr std::string_view kHttpSource = "http";

// Whether `message` names one of these resources with a method it takes (a fault of the wire
// acts on it; anything else is answered 404 or 405 at once).
bool is_ledger_resource(const HttpMessage& message);

// Answers `message` on the ledger (opened for writing): 2xx, or a problem.
HttpReply answer_resource(Connection& ledger, const Clock& clock, const HttpMessage& message);

}  // namespace idemlab
