// Where a ledger lives, as --db (or $IDEMLAB_DB) names it: a plain path is a SQLite file, the
// embedded default; `postgresql://` or `postgres://` names a PostgreSQL database, `mariadb://`
// or `mysql://` a MariaDB one. Anything else of the form `scheme://` is refused: it is never
// taken for a file name. A password in a URL is kept apart and never shown.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/limits.h"
#include "core/status.h"
#include "db/engine.h"

namespace idemlab {

struct Locator {
  Engine engine = kEmbeddedEngine;
  std::string path;  // SQLite: the file
  // Servers, percent-decoded: user, password, host, port (0: the client's default), database,
  // and the query's key=value pairs in order (host=/dir for PostgreSQL, socket=/path for
  // MariaDB's unix socket).
  std::string user;
  std::string password;
  std::string host;
  int port = 0;
  std::string database;
  std::vector<std::pair<std::string, std::string>> parameters;
  // How long a connection may take to open, and the server to answer after that (beyond a lock
  // wait's own limit), in seconds: ?connect_timeout=S, as libpq spells it, on both engines.
  int connect_timeout_s = defaults::kServerWaitS;
  // MariaDB only: a URL may name several nodes of a Galera cluster, host:port joined by commas.
  // `host` and `port` are then the node this connection uses: ?node=N (1 to their count), or
  // the first when not told. Empty when the URL names one host.
  std::vector<std::pair<std::string, int>> nodes;
  int node = 0;       // 1-based, with `nodes`
  std::string shown;  // as given, with any password replaced by "***": for errors and output
};

// Reads --db. A URL whose scheme is unknown, or that cannot be parsed (bad percent-escape, a port
// that is not a number from 1 to 65535, no database), is a usage error; its message never holds
// the password.
Status parse_locator(std::string_view text, Locator* out);

// `text` with the password of a URL replaced by "***" (unchanged when it is not a URL).
std::string redact_locator(std::string_view text);

// Reads a URL that `option` takes for one engine only: `scheme` names it (e.g. "postgresql"
// for --postgres), as --db would; a URL of another engine, or a file, is a usage error.
Status parse_locator_of(std::string_view text, std::string_view scheme, std::string_view option,
                        Locator* out);

// Whether `text` is the embedded engine's name ("sqlite"), as compare's and report's --backend
// take it: a scratch ledger of the run's own rather than a file or a URL.
bool names_embedded_engine(std::string_view text);

// The cluster URL `locator` on its node `node` (1 to nodes.size()): how a run spreads its
// connections over a Galera cluster's nodes.
Locator on_node(const Locator& locator, int node);

// The rule a command that keeps several connections to one ledger follows (serve's pool,
// consume): on a cluster URL that does not pick a node (no ?node=), it spreads them over every
// node, each request or delivery on the next node in turn, and this is how many nodes there are;
// 0 for any other ledger (every connection where the URL says). A one-attempt command uses node 1.
int nodes_to_spread_over(std::string_view db);

// `db`, a cluster URL, with ?node=N added: the same ledger on node N.
std::string url_on_node(std::string_view db, int node);

// Reads connect_timeout=S's value (1 to limits::kMaxServerWaitS); a usage error naming `shown`.
Status parse_connect_timeout(std::string_view value, const std::string& shown, int* out_s);

}  // namespace idemlab
