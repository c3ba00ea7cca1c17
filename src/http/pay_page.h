// The classroom's payment page, self-contained (no script, no outside asset):
//   GET  /pay              a payment form that carries no key: each submission is a new payment
//                          of the server's strategy, so a double click pays twice;
//   GET  /pay?guard=token  the same form carrying a one-time token the server issued for this
//                          page load; the token strategy takes it once, so a double click pays
//                          once;
//   POST /pay              pays, then redirects (303, Post/Redirect/Get) to the page, which says
//                          how many times the form was sent and how often money moved, read from
//                          the attempts log and the journal. A reload does not pay again.
#pragma once

#include "http/listener.h"

namespace idemlab {

class TransferServer;

HttpReply pay_page(TransferServer& server, const HttpMessage& message);

}  // namespace idemlab
