/* scripts/bench-serve's yardstick: libmicrohttpd answering every request with one fixed JSON
 * body, with the daemon flags idemlab serve uses (a thread per connection). What serve's
 * GET /accounts/NAME costs above it is idemlab's: routing, the pool, the ledger read.
 * usage: bare_mhd PORT   (runs until killed) */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char kBody[] = "{\"account\":\"alice\",\"balance\":\"1000.00\",\"limit\":null}\n";

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **state) {
  (void)cls, (void)url, (void)method, (void)version, (void)upload, (void)upload_size;
  if (*state == NULL) { /* the headers are in: wait for the end of the request */
    *state = (void *)1;
    return MHD_YES;
  }
  struct MHD_Response *response = MHD_create_response_from_buffer(
      sizeof kBody - 1, (void *)kBody, MHD_RESPMEM_PERSISTENT);
  MHD_add_response_header(response, "Content-Type", "application/json");
  enum MHD_Result queued = MHD_queue_response(connection, 200, response);
  MHD_destroy_response(response);
  return queued;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                   MHD_USE_POLL | MHD_USE_ITC;
  struct MHD_Daemon *daemon = MHD_start_daemon(
      flags, (unsigned short)atoi(argv[1]), NULL, NULL, answer, NULL,
      MHD_OPTION_CONNECTION_LIMIT, 256u, MHD_OPTION_CONNECTION_TIMEOUT, 10u,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(16 << 10), MHD_OPTION_STRICT_FOR_CLIENT, 1,
      MHD_OPTION_END);
  if (!daemon) return 1;
  printf("listening\n");
  fflush(stdout);
  pause();
  return 0;
}
