// --help that fits the output width: CLI11 lays out the columns, and this formatter wraps each
// description in its column and each footer line under its own indentation.
#pragma once

#include <CLI/CLI.hpp>

namespace idemlab {

// What an option's value is called in --help and the man page: N for a number, the choices
// for a short list (auto|always|never), the option's own name for a long one (STRATEGY), what
// a check names it (PATH|URL), else TEXT.
std::string option_value_name(const CLI::Option* opt);

class WrappingFormatter final : public CLI::Formatter {
 public:
  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  // The value's name and default, without CLI11's type noise (INT:INT:[60..1000]) and without
  // its (Env:...): a description that has an environment variable says so itself.
  std::string make_option_opts(const CLI::Option* opt) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;
  // "Usage: idemlab [OPTIONS] COMMAND": the word idemlab uses, not CLI11's "SUBCOMMAND".
  std::string make_usage(const CLI::App* app, std::string name) const override;
};

}  // namespace idemlab
