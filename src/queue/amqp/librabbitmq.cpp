// Resolving librabbitmq.so.4's functions into LibRabbitmq.
#include "queue/amqp/librabbitmq.h"

#include "core/client_library.h"

namespace idemlab {

namespace {

bool resolve_all(const ClientLibrary& library, LibRabbitmq* out) {
  return resolve(library, "amqp_new_connection", &out->new_connection) &&
         resolve(library, "amqp_destroy_connection", &out->destroy_connection) &&
         resolve(library, "amqp_tcp_socket_new", &out->tcp_socket_new) &&
         resolve(library, "amqp_socket_open_noblock", &out->socket_open_noblock) &&
         resolve(library, "amqp_login", &out->login) &&
         resolve(library, "amqp_channel_open", &out->channel_open) &&
         resolve(library, "amqp_get_rpc_reply", &out->get_rpc_reply) &&
         resolve(library, "amqp_queue_declare", &out->queue_declare) &&
         resolve(library, "amqp_confirm_select", &out->confirm_select) &&
         resolve(library, "amqp_basic_publish", &out->basic_publish) &&
         resolve(library, "amqp_simple_wait_frame_noblock", &out->simple_wait_frame_noblock) &&
         resolve(library, "amqp_read_message", &out->read_message) &&
         resolve(library, "amqp_destroy_message", &out->destroy_message) &&
         resolve(library, "amqp_basic_qos", &out->basic_qos) &&
         resolve(library, "amqp_basic_consume", &out->basic_consume) &&
         resolve(library, "amqp_consume_message", &out->consume_message) &&
         resolve(library, "amqp_destroy_envelope", &out->destroy_envelope) &&
         resolve(library, "amqp_basic_ack", &out->basic_ack) &&
         resolve(library, "amqp_basic_reject", &out->basic_reject) &&
         resolve(library, "amqp_connection_close", &out->connection_close) &&
         resolve(library, "amqp_maybe_release_buffers", &out->maybe_release_buffers) &&
         resolve(library, "amqp_error_string2", &out->error_string2) &&
         resolve(library, "amqp_cstring_bytes", &out->cstring_bytes) &&
         resolve(library, "amqp_parse_url", &out->parse_url) &&
         resolve(library, "amqp_default_connection_info", &out->default_connection_info) &&
         resolve(library, "amqp_set_handshake_timeout", &out->set_handshake_timeout) &&
         resolve(library, "amqp_set_rpc_timeout", &out->set_rpc_timeout) &&
         resolve(library, "amqp_get_sockfd", &out->get_sockfd);
}

}  // namespace

Status load_librabbitmq(const LibRabbitmq** out) {
  return load_client("librabbitmq.so.4", "librabbitmq4", resolve_all, out);
}

}  // namespace idemlab
