// --help that fits the output width: CLI11 lays out the columns, and this formatter wraps each
// description in its column and each footer line under its own indentation.
#pragma once

#include <CLI/CLI.hpp>

namespace idemlab {

class WrappingFormatter final : public CLI::Formatter {
 public:
  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;
};

}  // namespace idemlab
