/* scripts/bench-consume's yardstick: the broker's own rate on one connection, one message at a
 * time: publish a persistent message to a durable queue, consume it, ack it; N times.
 * usage: amqp_loop PORT QUEUE N    prints: messages per second */
#include <amqp.h>
#include <amqp_tcp_socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  amqp_connection_state_t c = amqp_new_connection();
  amqp_socket_t *socket = amqp_tcp_socket_new(c);
  if (amqp_socket_open(socket, "127.0.0.1", atoi(argv[1])) != AMQP_STATUS_OK) return 1;
  if (amqp_login(c, "/", 0, 131072, 0, AMQP_SASL_METHOD_PLAIN, "guest", "guest").reply_type !=
      AMQP_RESPONSE_NORMAL)
    return 1;
  amqp_channel_open(c, 1);
  amqp_bytes_t queue = amqp_cstring_bytes(argv[2]);
  amqp_queue_declare(c, 1, queue, 0, 1, 0, 0, amqp_empty_table);
  amqp_basic_consume(c, 1, queue, amqp_empty_bytes, 0, 0, 0, amqp_empty_table);
  amqp_basic_properties_t properties = {0};
  properties._flags = AMQP_BASIC_DELIVERY_MODE_FLAG;
  properties.delivery_mode = AMQP_DELIVERY_PERSISTENT;
  const char body[] = "{\"source\":\"mq\",\"biz_seq\":\"x\",\"from\":\"alice\",\"to\":\"bob\",\"amount\":\"0.01\"}";
  const int n = atoi(argv[3]);
  const double started = now();
  for (int i = 0; i < n; ++i) {
    amqp_basic_publish(c, 1, amqp_empty_bytes, queue, 0, 0, &properties, amqp_cstring_bytes(body));
    amqp_envelope_t envelope;
    amqp_maybe_release_buffers(c);
    if (amqp_consume_message(c, &envelope, NULL, 0).reply_type != AMQP_RESPONSE_NORMAL) return 1;
    amqp_basic_ack(c, 1, envelope.delivery_tag, 0);
    amqp_destroy_envelope(&envelope);
  }
  printf("%.0f\n", n / (now() - started));
  amqp_connection_close(c, AMQP_REPLY_SUCCESS);
  amqp_destroy_connection(c);
  return 0;
}
