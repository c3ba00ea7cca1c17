// idemlab's entry point: parse the command line, dispatch, and map every error to an exit code
// (and, under --json, a JSON object) in one place.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <exception>
#include <new>
#include <system_error>

#include "cli/command.h"
#include "cli/errors.h"
#include "cli/help_format.h"
#include "core/exit_code.h"
#include "core/interrupt.h"
#include "core/status.h"
#include "db/connection.h"
#include "term/color.h"
#include "term/width.h"

namespace {

// Standard output is flushed before the process ends, so that a write refused there (a full
// disk, a closed pipe) is answered like any other, not lost at exit.
int finish_output(int code, bool json) {
  if (std::fflush(stdout) == 0) return code;
  if (errno == EPIPE) {
    std::signal(SIGPIPE, SIG_DFL);
    std::raise(SIGPIPE);
  }
  if (errno == ENOSPC || errno == EDQUOT)
    return idemlab::report_error(
        idemlab::Status::unavailable("disk_full",
                                     "the disk holding standard output is full: the output is "
                                     "incomplete"),
        json);
  return code;
}

// A write to standard output or error that failed.
int report_write_error(const std::system_error& error, bool json) {
  // Standard output went to a pipe whose reader is gone (`idemlab history | head -1`): end as
  // a process writing there always has, by SIGPIPE, and quietly.
  if (error.code().value() == EPIPE) {
    std::signal(SIGPIPE, SIG_DFL);
    std::raise(SIGPIPE);
  }
  // A file on a full disk: what the command did stands, but its answer could not be written;
  // retried, an attempt answers the same again.
  if (error.code().value() == ENOSPC || error.code().value() == EDQUOT)
    return idemlab::report_error(
        idemlab::Status::unavailable("disk_full",
                                     "the disk holding standard output or standard error is "
                                     "full: the answer could not be written"),
        json);
  return idemlab::report_error(idemlab::Status::internal(error.what()), json);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace idemlab;
  ignore_broken_pipes();
  configure_sqlite();
  CLI::App app{
      "idemlab: a lab for idempotent money transfers on a real ledger, over every transport, "
      "and a deterministic simulator",
      "idemlab"};
  app.formatter(std::make_shared<WrappingFormatter>());  // before the subcommands copy it
  app.set_help_flag("-h,--help", "print this help and exit");
  app.set_version_flag("--version", IDEMLAB_VERSION, "print the version and exit");
  app.require_subcommand(1);
  app.option_defaults()->disable_flag_override();
  // --width N anywhere on the line (it falls through from a subcommand to here), set as soon
  // as it is read so that every command's output sees it.
  app.fallthrough();
  app.add_option_function<int64_t>(
         "--width", [](const int64_t& width) { set_output_width(static_cast<size_t>(width)); },
         "wrap text and fit tables to N columns (default: the terminal's width, or 100 when "
         "not a terminal)")
      ->check(whole_number(static_cast<int64_t>(kMinWidth), 1000))
      ->trigger_on_parse();
  app.add_option_function<std::string>(
         "--color",
         [](const std::string& when) {
           set_color_mode(when == "always"  ? ColorMode::kAlways
                          : when == "never" ? ColorMode::kNever
                                            : ColorMode::kAuto);
         },
         "auto (a terminal, unless NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->trigger_on_parse();
  CommandResult result;
  register_commands(app, result, command_word(argc, argv));
  app.footer(exit_code_help());  // after the commands: each has its own list
  const bool json = wants_json(argc, argv);
  try {
    throw_if_error(check_command_line(app, argc, argv));
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    if (argc == 1) {  // idemlab, alone: the groups on standard output, then the one error line
      fmt::print("{}\n", command_overview(app));
      std::fflush(stdout);
    }
    return report_error(parse_error_status(error, app, argc, argv), json);
  } catch (const StatusError& error) {
    return report_error(error.status, json);
  } catch (const std::bad_alloc&) {
    return report_error(Status::internal("out of memory"), json);
  } catch (const std::system_error& error) {
    return report_write_error(error, json);
  } catch (const std::exception& error) {
    return report_error(Status::internal(error.what()), json);
  }
  return finish_output(static_cast<int>(result.exit_code), json);
}
