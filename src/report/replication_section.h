// The report's section on replicated servers: for each pitfall of a guard kept on replicated
// servers, where it lives, what goes wrong, what it does to each strategy it reaches, the fix,
// and the lesson and test that show it on real servers. The page runs none of these cases:
// they need a standby, Sentinels or ZooKeeper; the section says which command runs each.
#pragma once

#include <string>

namespace idemlab {

std::string replication_section();

}  // namespace idemlab
