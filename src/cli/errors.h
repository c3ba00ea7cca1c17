// How the command line reports errors: one `error:` line on standard error, and under --json
// also one object {"error": {"code", "exit", "message"}} on standard output. The exit code comes
// from the Status; an interrupted run re-raises its signal.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "core/status.h"

namespace idemlab {

// Whether the command line asks for JSON (--json, or --format json) before any "--".
bool wants_json(int argc, char** argv);

// Checks CLI11 lets through: a value given to a flag (--json=yes, --help=1), and an unknown
// command name.
Status check_command_line(CLI::App& app, int argc, char** argv);

// What CLI11 said, in idemlab's words: no command, an unexpected argument (naming its command
// and where its help is), an option's missing value or a value not among its choices.
Status parse_error_status(const CLI::ParseError& error, CLI::App& app, int argc, char** argv);

// The usage line and the commands by group, for a command line that names none.
std::string command_overview(const CLI::App& app);

// The request this process's command works on (a one-attempt command): its error object under
// --json names it too ("source", "biz_seq"), so an answer cut by a failover still says whose it
// was (audit --answers counts it as unknown).
void set_error_request(std::string source, std::string biz_seq);

// Prints the error and returns the exit code (or re-raises an interrupting signal).
int report_error(const Status& status, bool json);

// A CLI11 validator: a whole decimal number in [low, high], no sign, space or exponent.
CLI::Validator whole_number(int64_t low, int64_t high);

}  // namespace idemlab
