// compare's table for people: every row within 100 columns (report/sim_view.h's other views
// carry every column). compare --backend's rows name their engine and level.
#pragma once

#include <string>
#include <vector>

#include "sim/simulate/simulate.h"

namespace idemlab {

// Whether any row ran under compare --backend (and so names where).
bool has_backends(const std::vector<SimResult>& results);
// "sqlite", "postgresql RC", "mariadb RR": the engine and level, short enough for a table.
std::string engine_label(const SimResult& r);
// "galera" for a run spread over a cluster's nodes, else the engine's name.
std::string_view engine_shown(const SimResult& r);
// A pitfall row is its strategy's "+NAME" line; the three moved counts share a column; the
// audit says ok or FAIL. Under 100 columns it narrows further.
std::string compact_table(const std::vector<SimResult>& results);
// What the compact table's columns mean, wrapped to the output width.
std::string compact_table_legend();

}  // namespace idemlab
