// idemlab's entry point: parse the command line, dispatch, and map every error to an exit code
// in one place.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>

#include "cli/command.h"
#include "core/exit_code.h"
#include "core/status.h"

int main(int argc, char** argv) {
  using namespace idemlab;
  CLI::App app{"idemlab: a lab for idempotent money transfers on a SQLite ledger", "idemlab"};
  app.set_version_flag("--version", IDEMLAB_VERSION);
  app.footer(exit_code_help());
  app.require_subcommand(1);
  CommandResult result;
  for (const CommandEntry& command : command_table()) command.register_command(app, result);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    fmt::print(stderr, "error: {}\n", error.what());
    return static_cast<int>(ExitCode::kUsage);
  } catch (const StatusError& error) {
    fmt::print(stderr, "error: {}\n", error.status.message());
    return static_cast<int>(error.status.code());
  } catch (const std::exception& error) {
    fmt::print(stderr, "error: internal: {}\n", error.what());
    return static_cast<int>(ExitCode::kInternal);
  }
  return static_cast<int>(result.exit_code);
}
