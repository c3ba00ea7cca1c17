// The report's section on replicated servers: for each pitfall of a guard kept on replicated
// servers, where it lives, what goes wrong, what it does to each strategy it reaches, the fix,
// and the lesson and test that show it on real servers. The page starts none of those servers
// (a standby, Sentinels, ZooKeeper, a Galera cluster); the section names the matrix's scenarios
// that ran the simulator's model of them, and the command that starts each.
#pragma once

#include <string>

#include "classroom/report_data.h"

namespace idemlab {

std::string replication_section(const ReportData& data);

}  // namespace idemlab
