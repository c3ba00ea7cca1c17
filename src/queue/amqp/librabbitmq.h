// The rabbitmq-c functions idemlab calls, resolved from librabbitmq.so.4 the first time a broker
// is used (it links OpenSSL: loaded at start-up it would cost every process, as the database
// clients would; see core/client_library.h).
#pragma once

#include <amqp.h>
#include <amqp_tcp_socket.h>

#include "core/status.h"

namespace idemlab {

struct LibRabbitmq {
  decltype(&amqp_new_connection) new_connection;
  decltype(&amqp_destroy_connection) destroy_connection;
  decltype(&amqp_tcp_socket_new) tcp_socket_new;
  decltype(&amqp_socket_open_noblock) socket_open_noblock;
  decltype(&amqp_login) login;
  decltype(&amqp_channel_open) channel_open;
  decltype(&amqp_get_rpc_reply) get_rpc_reply;
  decltype(&amqp_queue_declare) queue_declare;
  decltype(&amqp_confirm_select) confirm_select;
  decltype(&amqp_basic_publish) basic_publish;
  decltype(&amqp_simple_wait_frame_noblock) simple_wait_frame_noblock;
  decltype(&amqp_read_message) read_message;
  decltype(&amqp_destroy_message) destroy_message;
  decltype(&amqp_basic_qos) basic_qos;
  decltype(&amqp_basic_consume) basic_consume;
  decltype(&amqp_consume_message) consume_message;
  decltype(&amqp_destroy_envelope) destroy_envelope;
  decltype(&amqp_basic_ack) basic_ack;
  decltype(&amqp_basic_reject) basic_reject;
  decltype(&amqp_connection_close) connection_close;
  decltype(&amqp_maybe_release_buffers) maybe_release_buffers;
  decltype(&amqp_error_string2) error_string2;
  decltype(&amqp_cstring_bytes) cstring_bytes;
  decltype(&amqp_parse_url) parse_url;
  decltype(&amqp_default_connection_info) default_connection_info;
  decltype(&amqp_set_handshake_timeout) set_handshake_timeout;
  decltype(&amqp_set_rpc_timeout) set_rpc_timeout;
  decltype(&amqp_get_sockfd) get_sockfd;
};

// The table, loaded once per process.
Status load_librabbitmq(const LibRabbitmq** out);

}  // namespace idemlab
