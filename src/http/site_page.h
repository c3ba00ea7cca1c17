// GET /: serve's front page, the address its first line prints: what this server runs, and a
// link to each page and resource a class or a client uses (the payment pages, the accounts,
// the problem types), with the curl line that pays.
#pragma once

#include "http/listener.h"

namespace idemlab {

class TransferServer;

HttpReply site_page(TransferServer& server, const HttpMessage& message);

}  // namespace idemlab
