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

#include <optional>

#include "core/clock.h"
#include "db/connection.h"
#include "http/listener.h"

namespace idemlab {

// The source of every transfer POST /transfers makes, which GET /transfers/ID looks up.
inline constexpr std::string_view kHttpSource = "http";

// The 404 or 405 for a `message` that names none of these resources with a method it takes,
// answered at once, without the ledger (so also while it is out of reach), and untouched by a
// fault of the wire; nullopt otherwise.
std::optional<HttpReply> resource_refusal(const HttpMessage& message);

// Answers `message`, one resource_refusal() let through, on the ledger (opened for writing):
// 2xx, or a problem.
HttpReply answer_resource(Connection& ledger, const Clock& clock, const HttpMessage& message);

}  // namespace idemlab
