// Resolving libmariadb.so.3's functions into LibMariadb.
#include "db/mariadb/libmariadb.h"

#include "core/client_library.h"

namespace idemlab {

namespace {

bool resolve_libmariadb(const ClientLibrary& library, LibMariadb* api) {
  return resolve(library, "mysql_init", &api->init) &&
         resolve(library, "mysql_options", &api->options) &&
         resolve(library, "mysql_real_connect_start", &api->real_connect_start) &&
         resolve(library, "mysql_real_connect_cont", &api->real_connect_cont) &&
         resolve(library, "mysql_error", &api->error) &&
         resolve(library, "mysql_errno", &api->error_number) &&
         resolve(library, "mysql_close", &api->close) &&
         resolve(library, "mysql_real_query", &api->real_query) &&
         resolve(library, "mysql_store_result", &api->store_result) &&
         resolve(library, "mysql_free_result", &api->free_result) &&
         resolve(library, "mysql_num_fields", &api->num_fields) &&
         resolve(library, "mysql_field_count", &api->field_count) &&
         resolve(library, "mysql_fetch_row", &api->fetch_row) &&
         resolve(library, "mysql_fetch_lengths", &api->fetch_lengths) &&
         resolve(library, "mysql_fetch_fields", &api->fetch_fields) &&
         resolve(library, "mysql_affected_rows", &api->affected_rows) &&
         resolve(library, "mysql_next_result", &api->next_result) &&
         resolve(library, "mysql_real_escape_string", &api->escape) &&
         resolve(library, "mysql_real_query_start", &api->real_query_start) &&
         resolve(library, "mysql_real_query_cont", &api->real_query_cont) &&
         resolve(library, "mysql_get_socket", &api->get_socket) &&
         resolve(library, "mysql_thread_id", &api->thread_id);
}

}  // namespace

Status load_my(const LibMariadb** out) {
  return load_client("libmariadb.so.3", "libmariadb3", resolve_libmariadb, out);
}

}  // namespace idemlab
