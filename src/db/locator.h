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
#include "db/topology.h"

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
  // Several hosts, host:port joined by commas: a MariaDB URL's are a Galera cluster's nodes, a
  // PostgreSQL URL's failover candidates (libpq's ?host=A,B names them too). On a cluster,
  // `host` and `port` are the node this connection uses: ?node=N (1 to their count), or the
  // first when not told (`node`, 1-based). Empty when the URL names one host.
  std::vector<std::pair<std::string, int>> nodes;
  int node = 0;
  Topology topology;  // what the hosts are to each other (db/topology.h)
  std::string shown;  // as given, with any password replaced by "***": for errors and output
};

// Reads --db. A URL whose scheme is unknown, or that cannot be parsed (bad percent-escape, a port
// that is not a number from 1 to 65535, no database), is a usage error; its message never holds
// the password.
Status parse_locator(std::string_view text, Locator* out);

// `text` with the password of a URL replaced by "***" (unchanged when it is not a URL).
std::string redact_locator(std::string_view text);

// A printed URL's password is "***", so that a printed command can be pasted: given "***" as a
// password, idemlab takes it from IDEMLAB_PASSWORD, and without that variable refuses the URL
// (usage), saying how to put the password back.
inline constexpr std::string_view kHiddenPassword = "***";
Status reveal_password(const std::string& shown, std::string* password);

// A line to print under a command that holds a hidden password ("" when it holds none).
std::string hidden_password_note(std::string_view command);

// Reads a URL that `option` takes for one engine only: `scheme` names it (e.g. "postgresql"
// for --postgres), as --db would; a URL of another engine, or a file, is a usage error.
Status parse_locator_of(std::string_view text, std::string_view scheme, std::string_view option,
                        Locator* out);

// Whether `scheme` ("postgresql", "mariadb", ...) names a ledger's server, as --db reads it.
bool is_ledger_scheme(std::string_view scheme);

// Whether `text` is the embedded engine's name ("sqlite"), as compare's and report's --backend
// take it: a scratch ledger of the run's own rather than a file or a URL.
bool names_embedded_engine(std::string_view text);

// `locator` on its member `member` (topology.h's member_for_turn): on a cluster, the same
// ledger on that node; anything else, and member 0, as it is.
Locator on_member(const Locator& locator, int member);

// `db` as given (password included), naming member `member` of `locator` (read from `db`): on a
// cluster no ?node= pins, with node=N added; anything else as it is. For scripts that spread
// processes as idemlab spreads connections (idemlab topology --url-for-turn).
std::string url_for_member(std::string_view db, const Locator& locator, int member);

// Reads connect_timeout=S's value (1 to limits::kMaxServerWaitS); a usage error naming `shown`.
Status parse_connect_timeout(std::string_view value, const std::string& shown, int* out_s);

}  // namespace idemlab
