// Broker over rabbitmq-c: connecting, publishing with confirms, consuming with timeouts.
#include "queue/amqp/broker.h"

#include <fmt/format.h>
#include <sys/time.h>

#include <chrono>
#include <utility>

#include "core/interrupt.h"
#include "core/limits.h"
#include "core/quote.h"
#include "db/locator.h"
#include "db/server/refused.h"

namespace idemlab {

namespace {

constexpr amqp_channel_t kChannel = 1;
// rabbitmq-c's kEmptyTable and kEmptyBytes are data in the library, which is loaded
// at run time: these are the same values.
constexpr amqp_table_t kEmptyTable{0, nullptr};
constexpr amqp_bytes_t kEmptyBytes{0, nullptr};

timeval timeval_of(int ms) {
  return timeval{ms / 1000, (ms % 1000) * 1000};
}

std::string text_of(amqp_bytes_t bytes) {
  return std::string(static_cast<const char*>(bytes.bytes), bytes.len);
}

amqp_bytes_t bytes_of(const std::string& text) {
  return amqp_bytes_t{text.size(), const_cast<char*>(text.data())};
}

}  // namespace

Broker::Broker(Broker&& other) noexcept
    : lib_(other.lib_),
      connection_(std::exchange(other.connection_, nullptr)),
      location_(std::move(other.location_)) {}

Broker::~Broker() {
  if (!connection_) return;
  (void)lib_->connection_close(connection_, AMQP_REPLY_SUCCESS);
  lib_->destroy_connection(connection_);
}

Status Broker::lost(const std::string& doing, const std::string& why) const {
  return Status::unavailable(
      "connection_lost",
      fmt::format("lost the connection to {} while {}: {}", location_, doing, why));
}

Status Broker::check(const amqp_rpc_reply_t& reply, const char* doing) const {
  switch (reply.reply_type) {
    case AMQP_RESPONSE_NORMAL:
      return Status::ok();
    case AMQP_RESPONSE_LIBRARY_EXCEPTION:
      return lost(doing, lib_->error_string2(reply.library_error));
    case AMQP_RESPONSE_SERVER_EXCEPTION: {
      std::string why = "the broker closed the channel";
      if (reply.reply.id == AMQP_CHANNEL_CLOSE_METHOD)
        why = text_of(static_cast<amqp_channel_close_t*>(reply.reply.decoded)->reply_text);
      else if (reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD)
        why = text_of(static_cast<amqp_connection_close_t*>(reply.reply.decoded)->reply_text);
      return Status::usage(fmt::format("{} refused {}: {}", location_, doing, why));
    }
    default:
      return lost(doing, "no answer");
  }
}

namespace {

// amqp://USER:PASSWORD@HOST:PORT/VHOST[?connect_timeout=S]: the URL rabbitmq-c parses, and the
// wait. amqps:// is refused, not spoken as plain AMQP: this client has no TLS.
Status split_broker_url(const std::string& url, std::string* amqp_url, int* wait_s) {
  if (url.starts_with("amqps://"))
    return Status::usage(fmt::format(
        "--broker {}: amqps:// (AMQP over TLS) is not supported; idemlab speaks amqp:// only",
        redact_locator(url)));
  *amqp_url = url;
  const size_t query = url.find('?');
  if (query == std::string::npos) return Status::ok();
  *amqp_url = url.substr(0, query);
  const std::string_view pair = std::string_view(url).substr(query + 1);
  if (!pair.starts_with("connect_timeout="))
    return Status::usage(
        fmt::format("--broker {}: its query takes connect_timeout=S only", redact_locator(url)));
  return parse_connect_timeout(pair.substr(16), redact_locator(url), wait_s);
}

}  // namespace

Status Broker::open_socket(const amqp_connection_info& info, int wait_s) {
  connection_ = lib_->new_connection();
  amqp_socket_t* socket = lib_->tcp_socket_new(connection_);
  timeval wait{wait_s, 0};
  const int opened = lib_->socket_open_noblock(socket, info.host, info.port, &wait);
  if (opened == AMQP_STATUS_TIMEOUT) return no_answer(location_, wait_s);
  if (opened != AMQP_STATUS_OK)
    return Status::ledger(
        fmt::format("cannot connect to {}: {}", location_, lib_->error_string2(opened)));
  lib_->set_handshake_timeout(connection_, &wait);
  lib_->set_rpc_timeout(connection_, &wait);
  return Status::ok();
}

Status Broker::log_in(const amqp_connection_info& info, int wait_s) {
  amqp_rpc_reply_t login;
  {
    const WaitingSocket waiting(lib_->get_sockfd(connection_));
    login = lib_->login(connection_, info.vhost, 0, 131072, 0, AMQP_SASL_METHOD_PLAIN, info.user,
                        info.password);
  }
  RETURN_IF_ERROR(check_interrupt());
  if (login.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION &&
      login.library_error == AMQP_STATUS_TIMEOUT)
    return no_answer(location_, wait_s);
  if (login.reply_type != AMQP_RESPONSE_NORMAL)
    return Status::ledger(fmt::format("{} refused the login of {}", location_, info.user));
  return Status::ok();
}

Result<Broker> Broker::connect(const std::string& url) {
  Broker broker;
  RETURN_IF_ERROR(load_librabbitmq(&broker.lib_));
  const LibRabbitmq& lib = *broker.lib_;
  std::string parsed;  // amqp_parse_url cuts it in place and points into it
  int wait_s = defaults::kServerWaitS;
  RETURN_IF_ERROR(split_broker_url(url, &parsed, &wait_s));
  amqp_connection_info info;
  lib.default_connection_info(&info);
  if (lib.parse_url(parsed.data(), &info) != AMQP_STATUS_OK)
    return Status::usage(
        fmt::format("--broker {}: write amqp://USER:PASSWORD@HOST:PORT/", redact_locator(url)));
  // amqp://HOST:PORT/ names the vhost "" by the URI spec; RabbitMQ's own is "/".
  if (info.vhost[0] == '\0') info.vhost = const_cast<char*>("/");
  std::string password = info.password;  // "***" (a printed URL): IDEMLAB_PASSWORD's
  RETURN_IF_ERROR(reveal_password("--broker " + redact_locator(url), &password));
  info.password = password.data();
  broker.location_ = fmt::format("amqp://{}@{}:{}/", info.user, info.host, info.port);
  RETURN_IF_ERROR(broker.open_socket(info, wait_s));
  RETURN_IF_ERROR(broker.log_in(info, wait_s));
  lib.channel_open(broker.connection_, kChannel);
  RETURN_IF_ERROR(broker.check(lib.get_rpc_reply(broker.connection_), "opening a channel"));
  return broker;
}

Status Broker::declare_queue(const std::string& queue) {
  lib_->queue_declare(connection_, kChannel, bytes_of(queue), /*passive=*/0, /*durable=*/1,
                      /*exclusive=*/0, /*auto_delete=*/0, kEmptyTable);
  return check(lib_->get_rpc_reply(connection_), "declaring the queue");
}

Status Broker::expect_queue(const std::string& queue) {
  lib_->queue_declare(connection_, kChannel, bytes_of(queue), /*passive=*/1, /*durable=*/1,
                      /*exclusive=*/0, /*auto_delete=*/0, kEmptyTable);
  const amqp_rpc_reply_t reply = lib_->get_rpc_reply(connection_);
  if (reply.reply_type == AMQP_RESPONSE_SERVER_EXCEPTION &&
      reply.reply.id == AMQP_CHANNEL_CLOSE_METHOD) {
    const std::string why =
        text_of(static_cast<amqp_channel_close_t*>(reply.reply.decoded)->reply_text);
    if (why.find("down or inaccessible") != std::string::npos)  // recovering, after a restart
      return Status::unavailable("queue_recovering", fmt::format("{}: {}", location_, why));
    return Status::usage(fmt::format(
        "no queue {} on {}: consume takes a queue that exists (idemlab publish --queue {} "
        "makes it)",
        in_quotes(queue), location_, queue));
  }
  return check(reply, "looking for the queue");
}

Status Broker::enable_confirms() {
  lib_->confirm_select(connection_, kChannel);
  return check(lib_->get_rpc_reply(connection_), "asking for confirms");
}

Result<Confirm> Broker::publish(const std::string& queue, const std::string& body,
                                const std::string& message_id, int wait_ms,
                                const std::string& reason) {
  amqp_basic_properties_t properties{};
  properties._flags =
      AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_MESSAGE_ID_FLAG;
  properties.delivery_mode = AMQP_DELIVERY_PERSISTENT;
  properties.content_type = lib_->cstring_bytes("application/json");
  properties.message_id = bytes_of(message_id);
  amqp_table_entry_t entry{};
  if (!reason.empty()) {
    entry.key = lib_->cstring_bytes("x-idemlab-reason");
    entry.value.kind = AMQP_FIELD_KIND_UTF8;
    entry.value.value.bytes = bytes_of(reason);
    properties._flags |= AMQP_BASIC_HEADERS_FLAG;
    properties.headers = amqp_table_t{1, &entry};
  }
  const int sent =
      lib_->basic_publish(connection_, kChannel, kEmptyBytes, bytes_of(queue),
                          /*mandatory=*/1, /*immediate=*/0, &properties, bytes_of(body));
  if (sent != AMQP_STATUS_OK) return lost("publishing", lib_->error_string2(sent));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  bool returned = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return Confirm::kNoConfirm;
    timeval wait = timeval_of(static_cast<int>(left.count()));
    amqp_frame_t frame;
    const int got = lib_->simple_wait_frame_noblock(connection_, &frame, &wait);
    if (got == AMQP_STATUS_TIMEOUT) return Confirm::kNoConfirm;
    if (got != AMQP_STATUS_OK) return lost("waiting for a confirm", lib_->error_string2(got));
    if (frame.frame_type != AMQP_FRAME_METHOD) continue;
    const amqp_method_number_t method = frame.payload.method.id;
    if (method == AMQP_BASIC_ACK_METHOD) return returned ? Confirm::kReturned : Confirm::kStored;
    if (method == AMQP_BASIC_NACK_METHOD) return Confirm::kNacked;
    if (method == AMQP_BASIC_RETURN_METHOD) {  // unroutable: its message follows, then the ack
      amqp_message_t message;
      RETURN_IF_ERROR(check(lib_->read_message(connection_, kChannel, &message, 0),
                            "reading a returned message"));
      lib_->destroy_message(&message);
      returned = true;
    }
    if (method == AMQP_CHANNEL_CLOSE_METHOD || method == AMQP_CONNECTION_CLOSE_METHOD)
      return lost("waiting for a confirm", "the broker closed the channel");
  }
}

Status Broker::start_consuming(const std::string& queue, int prefetch) {
  lib_->basic_qos(connection_, kChannel, 0, static_cast<uint16_t>(prefetch), 0);
  RETURN_IF_ERROR(check(lib_->get_rpc_reply(connection_), "setting the prefetch"));
  lib_->basic_consume(connection_, kChannel, bytes_of(queue), kEmptyBytes, /*no_local=*/0,
                      /*no_ack=*/0, /*exclusive=*/0, kEmptyTable);
  return check(lib_->get_rpc_reply(connection_), "starting to consume");
}

// A frame that is not a delivery (rabbitmq-c leaves it for us): read and let go.
Status Broker::skip_other_frame() {
  amqp_frame_t frame;
  timeval wait = timeval_of(0);
  const int got = lib_->simple_wait_frame_noblock(connection_, &frame, &wait);
  if (got != AMQP_STATUS_OK && got != AMQP_STATUS_TIMEOUT)
    return lost("consuming", lib_->error_string2(got));
  if (got == AMQP_STATUS_OK && frame.frame_type == AMQP_FRAME_METHOD &&
      (frame.payload.method.id == AMQP_CHANNEL_CLOSE_METHOD ||
       frame.payload.method.id == AMQP_CONNECTION_CLOSE_METHOD))
    return lost("consuming", "the broker closed the channel");
  return Status::ok();
}

Result<std::optional<Delivery>> Broker::next(int wait_ms) {
  lib_->maybe_release_buffers(connection_);
  amqp_envelope_t envelope;
  timeval wait = timeval_of(wait_ms);
  const amqp_rpc_reply_t reply = lib_->consume_message(connection_, &envelope, &wait, 0);
  if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION) {
    if (reply.library_error == AMQP_STATUS_TIMEOUT) return std::optional<Delivery>();
    if (reply.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
      RETURN_IF_ERROR(skip_other_frame());
      return std::optional<Delivery>();
    }
  }
  RETURN_IF_ERROR(check(reply, "consuming"));
  Delivery delivery;
  delivery.handle = DeliveryHandle{envelope.delivery_tag};
  delivery.redelivered = envelope.redelivered != 0;
  delivery.body = text_of(envelope.message.body);
  if (envelope.message.properties._flags & AMQP_BASIC_MESSAGE_ID_FLAG)
    delivery.message_id = text_of(envelope.message.properties.message_id);
  lib_->destroy_envelope(&envelope);
  return std::optional<Delivery>(std::move(delivery));
}

Status Broker::ack(uint64_t tag) {
  const int sent = lib_->basic_ack(connection_, kChannel, tag, 0);
  return sent == AMQP_STATUS_OK ? Status::ok() : lost("acking", lib_->error_string2(sent));
}

Status Broker::reject(uint64_t tag, bool requeue) {
  const int sent = lib_->basic_reject(connection_, kChannel, tag, requeue ? 1 : 0);
  return sent == AMQP_STATUS_OK ? Status::ok() : lost("rejecting", lib_->error_string2(sent));
}

}  // namespace idemlab
