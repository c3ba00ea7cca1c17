// explain's views: a strategy explained (how it works, its pitfalls, its steps and a traced
// rehearsal) as text or JSON, and the list of strategies. Data in, text out: the command
// (cli/cmd_explain.cpp) rehearses and prints.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attempt/trace.h"
#include "db/engine.h"

namespace idemlab {

// What explain shows of one strategy: its rehearsed traces, on an engine, at a level.
struct Explained {
  const StrategyInfo* info = nullptr;
  Pitfall traced = Pitfall::kNone;
  Engine engine = kEmbeddedEngine;
  std::string isolation;  // on a server: the level, "(its default)" when not chosen
  std::vector<TracedAttempt> safe, pitfall;
};

nlohmann::ordered_json explain_json(const Explained& e);
std::string explain_text(const Explained& e);

// Every strategy, one strategy per biz_seq, and the queue consumer's pitfalls.
nlohmann::ordered_json strategy_list_json();
std::string strategy_list_text();

}  // namespace idemlab
