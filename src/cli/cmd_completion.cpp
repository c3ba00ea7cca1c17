// `idemlab completion bash|zsh|fish` and `idemlab manual`: the shell completions and the man
// page, made from the command definitions themselves. The build installs their output; a user
// without the package can source `idemlab completion bash` or read `man -l <(idemlab manual)`.
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/command_docs.h"
#include "cli/completions.h"
#include "cli/man_page.h"

namespace idemlab {

namespace {

std::string shell_completion(const CliDoc& cli, const std::string& shell) {
  if (shell == "bash") return bash_completion(cli);
  if (shell == "zsh") return zsh_completion(cli);
  return fish_completion(cli);
}

}  // namespace

void register_completion(CLI::App& app, CommandResult& result) {
  auto shell = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand(
      "completion", "print the shell completion for bash, zsh or fish (source it, or install it)");
  command->add_option("shell", *shell, "bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  command->callback([&app, &result, shell] {
    fmt::print("{}", shell_completion(describe_cli(app, IDEMLAB_VERSION), *shell));
    result.exit_code = ExitCode::kOk;
  });
}

void register_manual(CLI::App& app, CommandResult& result) {
  CLI::App* command =
      app.add_subcommand("manual", "print the manual page in roff: man -l <(idemlab manual)");
  command->callback([&app, &result] {
    fmt::print("{}", man_page(describe_cli(app, IDEMLAB_VERSION)));
    result.exit_code = ExitCode::kOk;
  });
}

}  // namespace idemlab
