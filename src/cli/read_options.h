// --read-db and --read-your-writes: reads sent to a PostgreSQL standby as read/write splitting
// sends them (query, the strategy subcommands).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/command.h"
#include "ledger/read_split.h"

namespace idemlab {

// --read-db URL ($IDEMLAB_READ_DB). `what` finishes the help text: what goes to the standby.
void add_read_db_option(CLI::App* command, std::string* read_db, std::string_view what);
// --read-db and --read-your-writes, for the commands that run attempts (the strategy
// subcommands, serve, consume).
void add_attempt_read_options(CLI::App* command, std::string* read_db, bool* read_your_writes);
// What open_read_split checks, for a command that opens its standby later (serve's pool):
// --read-your-writes needs --read-db, which names a standby of a PostgreSQL `db`.
void check_attempt_reads(const std::string& read_db, bool read_your_writes, const std::string& db);
// A usage error unless `read_db` is empty or names a PostgreSQL server.
void check_read_db(const std::string& read_db);
// The split for an attempt on `primary`: nullptr without --read-db. --read-your-writes without
// --read-db is a usage error: the primary always has the client's writes.
std::unique_ptr<ReadSplit> open_read_split(const std::string& read_db, bool read_your_writes,
                                           Connection& primary);

// Where an attempt's reads went, for its answer: {"standby": N, "primary": M,
// "standby_replayed": LSN or null} and " (reads: N on the standby, M on the primary ...)".
nlohmann::ordered_json reads_json(const ReadSplit& reads);
std::string reads_text(const ReadSplit& reads);

}  // namespace idemlab
