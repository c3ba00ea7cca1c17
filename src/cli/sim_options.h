// Options simulate and compare share: the scenario, its overrides, and the output format.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "report/sim_view.h"
#include "sim/shared/scenario.h"

namespace idemlab {

struct SimCliOptions {
  std::optional<std::string> scenario;
  // Per sim_settings() row (requests, concurrency, seed, lock and token TTLs): the command
  // line's value, if given.
  std::vector<std::optional<int64_t>> settings = std::vector<std::optional<int64_t>>(8);
  std::vector<std::string> faults;
  std::vector<std::string> topology;
  std::optional<std::string> retry;
  std::optional<std::string> sources;
  std::string format = "table";
  bool fail_on_violation = false;
  bool json = false;
  bool read_your_writes = false;
  bool fence = false;
};

void add_sim_options(CLI::App* command, SimCliOptions* options);
// The scenario with the command line's values over it (--fault replaces its faults).
SimConfig build_config(const SimCliOptions& options);
// The format asked for; a usage error when --json and --format name two different ones.
Format output_format(const SimCliOptions& options);
// Every setting spelled out, so the command alone reproduces the run.
std::string config_arguments(const SimConfig& config);
// What simulate, compare and explore exit with (their --help footer).
// --fail-on violation, shared by simulate, compare and explore.
void add_fail_on_option(CLI::App* command, bool* fail_on_violation);

// --db and --isolation of a command whose ledger is a scratch one (simulate, explore): --db takes
// only a PostgreSQL or MariaDB URL, where the command makes a scratch ledger of its own; none is
// SQLite in memory. Usage errors are thrown.
struct ScratchServerChoice {
  std::optional<Locator> server;
  Isolation isolation = Isolation::kDefault;
};
void add_scratch_server_options(CLI::App* command, const std::string& verb, std::string* db,
                                std::string* isolation);
ScratchServerChoice scratch_server_choice(const std::string& command, const std::string& db,
                                          const std::string& isolation);
// " --db URL --isolation LEVEL" for a reproduce line (the URL as shown: no password); "".
std::string scratch_server_arguments(const ScratchServerChoice& choice);

// --redis of simulate, compare and explore: the token and lock-table strategies keep their
// tokens and locks in this Redis, in keys of the run's own (sim/scratch_redis.h). Without the
// IDEMLAB_REDIS variable transfer reads: a simulation runs where its command line says.
void add_scratch_redis_option(CLI::App* command, std::string* redis);
// The locator, or none without --redis. A usage error (thrown) when no strategy among
// `strategies` keeps tokens or locks.
std::optional<RedisLocator> scratch_redis_choice(const std::string& redis,
                                                 const std::vector<std::string>& strategies);
// " --redis URL" for a reproduce line (the URL as shown: no password); "".
std::string scratch_redis_arguments(const std::optional<RedisLocator>& redis);
// --topology's help: its parts and shapes.
extern const char* const kTopologyHelp;
// Usage errors: a ledger topology on a server (the simulator's replicas copy its own SQLite
// ledger), guards=replica (or a failover of the guard store) with --redis, and when the command
// line gave it (`given`: a scenario's is its own), guards=replica while none of `strategies`
// keeps tokens or locks.
void check_topology(const SimConfig& config, bool on_server, bool redis,
                    const std::vector<std::string>& strategies, bool given);

// Reports progress on standard error when it is a terminal; quiet otherwise.
std::function<void(int64_t, int64_t)> progress_reporter(std::string label,
                                                        std::string unit = "requests");
// The same for compare's rows.
std::function<void(size_t, size_t)> rows_reporter(std::string label);

}  // namespace idemlab
