// Listener: an HTTP/1.1 server on a socket, over libmicrohttpd (loaded on first use, as the
// database clients are: linked in, it and the TLS libraries it pulls would cost every process
// at start-up). It parses requests, keeps to the limits it is given, and hands each whole
// request to a handler on the connection's own thread, so an attempt that waits (for a lock,
// for a slow fault) holds only its own connection. A handler can also drop a connection with no
// answer at all, which a lost request or a lost answer is.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/limits.h"
#include "core/status.h"

namespace idemlab {

struct ListenerOptions {
  std::string host = "127.0.0.1";  // loopback unless told otherwise
  int port = 8080;                 // 0: a free port, which port() then says
  int64_t max_body_bytes = defaults::kBodyBytes;
  int64_t max_header_bytes = defaults::kHeaderBytes;
  int timeout_s = defaults::kIdleConnectionS;  // an idle connection is closed (a stalled client)
  int max_connections = defaults::kHttpConnections;  // at once; each a thread while it is open
};

struct HttpMessage {
  std::string method;
  std::string path;                                 // without the query
  std::multimap<std::string, std::string> query;    // percent-decoded
  std::multimap<std::string, std::string> headers;  // names in lower case
  std::string body;
  bool body_too_large = false;  // longer than max_body_bytes: `body` is empty

  // The first value of header `name` (lower case), or nullptr.
  const std::string* header(const std::string& name) const;
  const std::string* query_value(const std::string& name) const;
};

struct HttpReply {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool drop = false;  // close the connection with no answer at all

  static HttpReply dropped() {
    HttpReply reply;
    reply.drop = true;
    return reply;
  }
};

using HttpHandler = std::function<HttpReply(const HttpMessage&)>;

// "201 Created", "404 Not Found", ...: the status and its reason phrase (RFC 9110).
std::string http_status_line(int status);

class Listener {
 public:
  Listener() = default;
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // Binds and starts accepting; the handler runs on each connection's thread.
  Status start(const ListenerOptions& options, HttpHandler handler);
  int port() const { return port_; }
  // Stops accepting new connections; those open go on.
  void stop_accepting();
  // Requests whose handler is running now.
  int in_flight() const { return in_flight_.load(); }
  // Closes every connection and waits for their threads (a handler running finishes first).
  void stop();

  // For the library's callbacks (listener.cpp).
  struct Request;
  HttpReply handle(const HttpMessage& message);
  const ListenerOptions& options() const { return options_; }

 private:
  ListenerOptions options_;
  HttpHandler handler_;
  void* daemon_ = nullptr;
  int port_ = 0;
  int quiesced_socket_ = -1;  // the listening socket stop_accepting() took back, closed by stop()
  std::atomic<int> in_flight_{0};
};

}  // namespace idemlab
