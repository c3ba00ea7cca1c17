// libpq, PostgreSQL's C client: the functions idemlab calls, resolved from libpq.so.5 on first
// use (core/client_library.h), and how its messages read.
#pragma once

#include <libpq-fe.h>

#include <string>

#include "core/status.h"

namespace idemlab {

// The libpq functions idemlab calls.
struct LibPq {
  decltype(&PQconnectStartParams) connect_start_params;
  decltype(&PQconnectPoll) connect_poll;
  decltype(&PQstatus) status;
  decltype(&PQerrorMessage) error_message;
  decltype(&PQfinish) finish;
  decltype(&PQexecParams) exec_params;
  decltype(&PQexec) exec;
  decltype(&PQresultStatus) result_status;
  decltype(&PQresultErrorField) result_error_field;
  decltype(&PQresultErrorMessage) result_error_message;
  decltype(&PQclear) clear;
  decltype(&PQntuples) ntuples;
  decltype(&PQnfields) nfields;
  decltype(&PQgetvalue) getvalue;
  decltype(&PQgetisnull) getisnull;
  decltype(&PQgetlength) getlength;
  decltype(&PQftype) ftype;
  decltype(&PQcmdTuples) cmd_tuples;
  decltype(&PQtransactionStatus) transaction_status;
  decltype(&PQsetNoticeProcessor) set_notice_processor;
  decltype(&PQsendQueryParams) send_query_params;
  decltype(&PQconsumeInput) consume_input;
  decltype(&PQisBusy) is_busy;
  decltype(&PQgetResult) get_result;
  decltype(&PQsocket) socket;
  decltype(&PQbackendPID) backend_pid;
  decltype(&PQhost) host;
  decltype(&PQport) port;
};

// Loads libpq.so.5 once; an error names the package to install.
Status load_pq(const LibPq** out);

// The first line of a libpq message (they end in a newline, some carry a DETAIL line).
std::string first_line(const char* message);

}  // namespace idemlab
