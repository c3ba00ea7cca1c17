// Loading libpq.
#include "db/postgres/libpq.h"

#include "core/client_library.h"

namespace idemlab {

namespace {

bool resolve_libpq(const ClientLibrary& library, LibPq* api) {
  return resolve(library, "PQconnectStartParams", &api->connect_start_params) &&
         resolve(library, "PQconnectPoll", &api->connect_poll) &&
         resolve(library, "PQstatus", &api->status) &&
         resolve(library, "PQerrorMessage", &api->error_message) &&
         resolve(library, "PQfinish", &api->finish) &&
         resolve(library, "PQexecParams", &api->exec_params) &&
         resolve(library, "PQexec", &api->exec) &&
         resolve(library, "PQresultStatus", &api->result_status) &&
         resolve(library, "PQresultErrorField", &api->result_error_field) &&
         resolve(library, "PQresultErrorMessage", &api->result_error_message) &&
         resolve(library, "PQclear", &api->clear) && resolve(library, "PQntuples", &api->ntuples) &&
         resolve(library, "PQnfields", &api->nfields) &&
         resolve(library, "PQgetvalue", &api->getvalue) &&
         resolve(library, "PQgetisnull", &api->getisnull) &&
         resolve(library, "PQgetlength", &api->getlength) &&
         resolve(library, "PQftype", &api->ftype) &&
         resolve(library, "PQcmdTuples", &api->cmd_tuples) &&
         resolve(library, "PQtransactionStatus", &api->transaction_status) &&
         resolve(library, "PQsetNoticeProcessor", &api->set_notice_processor) &&
         resolve(library, "PQsendQueryParams", &api->send_query_params) &&
         resolve(library, "PQconsumeInput", &api->consume_input) &&
         resolve(library, "PQisBusy", &api->is_busy) &&
         resolve(library, "PQgetResult", &api->get_result) &&
         resolve(library, "PQsocket", &api->socket) &&
         resolve(library, "PQbackendPID", &api->backend_pid) &&
         resolve(library, "PQhost", &api->host) && resolve(library, "PQport", &api->port);
}

}  // namespace

Status load_pq(const LibPq** out) {
  return load_client("libpq.so.5", "libpq5", resolve_libpq, out);
}

std::string first_line(const char* message) {
  std::string text = message ? message : "";
  text = text.substr(0, text.find('\n'));
  return text.starts_with("ERROR:  ") ? text.substr(8) : text;
}

}  // namespace idemlab
