// The listener over libmicrohttpd: one thread per connection, the request gathered whole (with
// its body bounded), then handed to the handler; MHD_NO from the access handler closes the
// connection unanswered.
#include "http/listener.h"

#include <fmt/format.h>
#include <microhttpd.h>
#include <netdb.h>
#include <unistd.h>

#include <cstring>
#include <mutex>

#include "core/client_library.h"

namespace idemlab {

namespace {

// The libmicrohttpd functions idemlab calls, resolved from libmicrohttpd.so.12.
struct LibMicrohttpd {
  decltype(&MHD_start_daemon) start_daemon;
  decltype(&MHD_stop_daemon) stop_daemon;
  decltype(&MHD_quiesce_daemon) quiesce_daemon;
  decltype(&MHD_get_daemon_info) get_daemon_info;
  decltype(&MHD_get_connection_values) get_connection_values;
  decltype(&MHD_create_response_from_buffer) create_response_from_buffer;
  decltype(&MHD_add_response_header) add_response_header;
  decltype(&MHD_queue_response) queue_response;
  decltype(&MHD_destroy_response) destroy_response;
};

bool resolve_libmicrohttpd(const ClientLibrary& library, LibMicrohttpd* api) {
  return resolve(library, "MHD_start_daemon", &api->start_daemon) &&
         resolve(library, "MHD_stop_daemon", &api->stop_daemon) &&
         resolve(library, "MHD_quiesce_daemon", &api->quiesce_daemon) &&
         resolve(library, "MHD_get_daemon_info", &api->get_daemon_info) &&
         resolve(library, "MHD_get_connection_values", &api->get_connection_values) &&
         resolve(library, "MHD_create_response_from_buffer", &api->create_response_from_buffer) &&
         resolve(library, "MHD_add_response_header", &api->add_response_header) &&
         resolve(library, "MHD_queue_response", &api->queue_response) &&
         resolve(library, "MHD_destroy_response", &api->destroy_response);
}

Status load_microhttpd(const LibMicrohttpd** out) {
  return load_client("libmicrohttpd.so.12", "libmicrohttpd12", resolve_libmicrohttpd, out);
}

const LibMicrohttpd* g_mhd = nullptr;  // set by Listener::start before any callback runs

std::string lower(const char* text) {
  std::string out(text ? text : "");
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

extern "C" MHD_Result collect_header(void* to, MHD_ValueKind, const char* key, const char* value) {
  static_cast<HttpMessage*>(to)->headers.emplace(lower(key), value ? value : "");
  return MHD_YES;
}

extern "C" MHD_Result collect_argument(void* to, MHD_ValueKind, const char* key,
                                       const char* value) {
  static_cast<HttpMessage*>(to)->query.emplace(key ? key : "", value ? value : "");
  return MHD_YES;
}

}  // namespace

struct Listener::Request {
  HttpMessage message;
  bool too_large = false;
};

namespace {

MHD_Result send_reply(MHD_Connection* connection, const HttpReply& reply) {
  MHD_Response* response = g_mhd->create_response_from_buffer(
      reply.body.size(), const_cast<char*>(reply.body.data()), MHD_RESPMEM_MUST_COPY);
  if (!response) return MHD_NO;
  for (const auto& [name, value] : reply.headers)
    g_mhd->add_response_header(response, name.c_str(), value.c_str());
  const MHD_Result queued =
      g_mhd->queue_response(connection, static_cast<unsigned>(reply.status), response);
  g_mhd->destroy_response(response);
  return queued;
}

// Called once when the headers are in, then once per piece of the body, then once more.
extern "C" MHD_Result on_request(void* listener_ptr, MHD_Connection* connection, const char* url,
                                 const char* method, const char*, const char* upload,
                                 size_t* upload_size, void** state) {
  auto* listener = static_cast<Listener*>(listener_ptr);
  auto* request = static_cast<Listener::Request*>(*state);
  if (!request) {
    request = new Listener::Request();
    request->message.method = method ? method : "";
    request->message.path = url ? url : "";
    g_mhd->get_connection_values(connection, MHD_HEADER_KIND, collect_header, &request->message);
    g_mhd->get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect_argument,
                                 &request->message);
    *state = request;
    return MHD_YES;
  }
  if (*upload_size > 0) {
    const auto room = static_cast<size_t>(listener->options().max_body_bytes);
    if (request->message.body.size() + *upload_size > room)
      request->too_large = true;  // the rest is read and thrown away
    else
      request->message.body.append(upload, *upload_size);
    *upload_size = 0;
    return MHD_YES;
  }
  if (request->too_large) request->message.body.clear();
  request->message.body_too_large = request->too_large;
  const HttpReply reply = listener->handle(request->message);
  if (reply.drop) return MHD_NO;  // the connection closes, and the client hears nothing
  return send_reply(connection, reply);
}

extern "C" void on_completed(void*, MHD_Connection*, void** state, MHD_RequestTerminationCode) {
  delete static_cast<Listener::Request*>(*state);
  *state = nullptr;
}

Status bind_address(const std::string& host, int port, sockaddr_storage* out, bool* ipv6) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int error = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); error != 0)
    return Status::usage(fmt::format("--listen {}: {}", host, ::gai_strerror(error)));
  std::memcpy(out, found->ai_addr, found->ai_addrlen);
  *ipv6 = found->ai_family == AF_INET6;
  ::freeaddrinfo(found);
  return Status::ok();
}

}  // namespace

std::string http_status_line(int status) {
  static constexpr std::pair<int, const char*> kPhrases[] = {{200, "OK"},
                                                             {201, "Created"},
                                                             {204, "No Content"},
                                                             {303, "See Other"},
                                                             {400, "Bad Request"},
                                                             {404, "Not Found"},
                                                             {405, "Method Not Allowed"},
                                                             {409, "Conflict"},
                                                             {413, "Content Too Large"},
                                                             {415, "Unsupported Media Type"},
                                                             {422, "Unprocessable Content"},
                                                             {500, "Internal Server Error"},
                                                             {503, "Service Unavailable"}};
  for (const auto& [code, phrase] : kPhrases)
    if (code == status) return fmt::format("{} {}", code, phrase);
  return std::to_string(status);
}

const std::string* HttpMessage::header(const std::string& name) const {
  const auto found = headers.find(name);
  return found == headers.end() ? nullptr : &found->second;
}

const std::string* HttpMessage::query_value(const std::string& name) const {
  const auto found = query.find(name);
  return found == query.end() ? nullptr : &found->second;
}

HttpReply Listener::handle(const HttpMessage& message) {
  ++in_flight_;
  HttpReply reply = handler_(message);
  --in_flight_;
  return reply;
}

Status Listener::start(const ListenerOptions& options, HttpHandler handler) {
  RETURN_IF_ERROR(load_microhttpd(&g_mhd));
  options_ = options;
  handler_ = std::move(handler);
  sockaddr_storage address{};
  bool ipv6 = false;
  RETURN_IF_ERROR(bind_address(options.host, options.port, &address, &ipv6));
  unsigned flags =
      MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC;
  if (ipv6) flags |= MHD_USE_IPv6;
  daemon_ = g_mhd->start_daemon(
      flags, static_cast<uint16_t>(options.port), nullptr, nullptr, on_request, this,
      MHD_OPTION_SOCK_ADDR, &address, MHD_OPTION_NOTIFY_COMPLETED, on_completed, nullptr,
      MHD_OPTION_CONNECTION_LIMIT, static_cast<unsigned>(options.max_connections),
      MHD_OPTION_CONNECTION_TIMEOUT, static_cast<unsigned>(options.timeout_s),
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, static_cast<size_t>(options.max_header_bytes),
      MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u,
      // HTTP/1.1 as written: a request without Host, or with a space before a header's colon,
      // is answered 400 instead of guessed at.
      MHD_OPTION_STRICT_FOR_CLIENT, 1, MHD_OPTION_END);
  if (!daemon_)
    return Status::usage(fmt::format("cannot listen on {}:{}: {}", options.host, options.port,
                                     std::strerror(errno ? errno : EADDRINUSE)));
  const MHD_DaemonInfo* info =
      g_mhd->get_daemon_info(static_cast<MHD_Daemon*>(daemon_), MHD_DAEMON_INFO_BIND_PORT);
  port_ = info ? info->port : options.port;
  return Status::ok();
}

void Listener::stop_accepting() {
  if (daemon_ && quiesced_socket_ < 0)
    quiesced_socket_ = g_mhd->quiesce_daemon(static_cast<MHD_Daemon*>(daemon_));
}

void Listener::stop() {
  if (!daemon_) return;
  g_mhd->stop_daemon(static_cast<MHD_Daemon*>(daemon_));
  daemon_ = nullptr;
  if (quiesced_socket_ >= 0) ::close(quiesced_socket_);  // MHD leaves it to us, after the stop
  quiesced_socket_ = -1;
}

Listener::~Listener() {
  stop();
}

}  // namespace idemlab
