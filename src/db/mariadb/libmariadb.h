// The libmariadb functions idemlab calls, resolved from libmariadb.so.3 the first time a
// MariaDB ledger is opened (core/client_library.h says why not at start-up).
#pragma once

#include <mysql.h>

#include "core/status.h"

namespace idemlab {

// The libmariadb functions idemlab calls, resolved from libmariadb.so.3.
struct LibMariadb {
  decltype(&mysql_init) init;
  decltype(&mysql_options) options;
  decltype(&mysql_real_connect_start) real_connect_start;
  decltype(&mysql_real_connect_cont) real_connect_cont;
  decltype(&mysql_error) error;
  decltype(&mysql_errno) error_number;
  decltype(&mysql_close) close;
  decltype(&mysql_real_query) real_query;
  decltype(&mysql_store_result) store_result;
  decltype(&mysql_free_result) free_result;
  decltype(&mysql_num_fields) num_fields;
  decltype(&mysql_field_count) field_count;
  decltype(&mysql_fetch_row) fetch_row;
  decltype(&mysql_fetch_lengths) fetch_lengths;
  decltype(&mysql_fetch_fields) fetch_fields;
  decltype(&mysql_affected_rows) affected_rows;
  decltype(&mysql_next_result) next_result;
  decltype(&mysql_real_escape_string) escape;
  decltype(&mysql_real_query_start) real_query_start;
  decltype(&mysql_real_query_cont) real_query_cont;
  decltype(&mysql_get_socket) get_socket;
  decltype(&mysql_thread_id) thread_id;
};

// The table, loaded once per process.
Status load_my(const LibMariadb** out);

}  // namespace idemlab
