// `idemlab report`: one self-contained HTML file (inline CSS and SVG; no script, no font or
// image fetched) that a class can read offline or print: a card per strategy with its guard
// and each pitfall as diagrams, the compare matrix across scenarios, small charts, the lessons.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "db/locator.h"
#include "strategies/strategy.h"

namespace idemlab {

// report --backend: one column of the engines section, SQLite (no server) or a server at a
// level.
struct ReportEngine {
  std::string backend;  // "sqlite", or the URL as shown (no password)
  std::optional<Locator> server;
  Isolation isolation = Isolation::kDefault;
};

struct ReportInput {
  std::vector<std::string> scenarios;  // built-in scenario names
  std::vector<const Strategy*> strategies;
  int64_t requests = 200;  // per scenario in the matrix
  uint64_t seed = 1;
  int jobs = 1;
  std::string command;  // the command that reproduces the report
  // report --backend: the engines section's columns, the strategy its twins explore, and
  // " --backend ... --isolation ..." for its reproduce lines. No engines: no section.
  std::vector<ReportEngine> engines;
  const Strategy* engine_strategy = nullptr;
  std::string backend_arguments;
};

Status build_report(const ReportInput& input, std::string* html);

}  // namespace idemlab
