// Malformed input, generated (RapidCheck): command lines and scenario files that each carry at
// least one bad value go to the real binary. Whatever they hold, it exits 2 (usage) with one
// error line, within a time limit, under the memory budget, and the ledger is unchanged.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/limits.h"
#include "scratch.h"

extern char** environ;

using namespace idemlab;

namespace {

struct ProcessOutcome {
  int exit_code = -1;  // -1: killed or timed out
  bool timed_out = false;
  int64_t peak_kib = 0;  // the child's peak resident memory
  std::string stderr_text;
};

// Runs the binary with `args`, at most `limit`; stdout is dropped, stderr kept.
ProcessOutcome run_idemlab(const std::vector<std::string>& args, const std::string& folder,
                           std::chrono::seconds limit = std::chrono::seconds(20)) {
  std::vector<char*> argv{const_cast<char*>(IDEMLAB_BINARY)};
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const std::string err_path = folder + "/stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  pid_t pid = 0;
  REQUIRE(posix_spawn(&pid, IDEMLAB_BINARY, &actions, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&actions);
  ProcessOutcome outcome;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  struct rusage usage {};
  while (::wait4(pid, &status, WNOHANG, &usage) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::wait4(pid, &status, 0, &usage);
      outcome.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (!outcome.timed_out && WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  outcome.peak_kib = usage.ru_maxrss;
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  outcome.stderr_text = text.str();
  return outcome;
}

// Every row of every table: equal before and after means nothing was written.
std::string ledger_content(const test::LedgerFile& ledger) {
  Result<Connection> opened = open_ledger(ledger.path(), Access::kRead, 1000);
  REQUIRE(opened.is_ok());
  Connection& connection = *opened;
  std::string out;
  for (const char* table :
       {"account", "transfer_flow", "journal", "dedup", "token", "lock", "attempt"}) {
    StepResult dumped =
        connection.query(fmt::format("SELECT * FROM {}", table), {}, [&](const Row& row) {
          for (const Value& value : row)
            out += (is_null(value) ? "NULL" : as_text(value) + std::to_string(as_int(value))) + "|";
          out += "\n";
        });
    REQUIRE(dumped.ok());
  }
  return out;
}

// Values no option accepts: as numbers, and as ids (biz_seq, account names).
const std::vector<std::string> kBadIds{
    "", "-1", "--json", "with space", "\t", "\xff\xfe", std::string(65, 'x'), "-"};
const std::vector<std::string> kBadValues{"",
                                          "-1",
                                          "0x10",
                                          "1e3",
                                          " 5",
                                          "5 ",
                                          "nan",
                                          "99999999999999999999",
                                          "9223372036854775808",
                                          "-9223372036854775809",
                                          "--json",
                                          std::string(5000, '9'),
                                          "\xff\xfe",
                                          "1.5.5",
                                          "a=b=c",
                                          "\t"};
const std::vector<std::string> kBadFaults{"meteor",
                                          "busy",
                                          "slow:ms=",
                                          "slow:ms=-5",
                                          "slow:ms=86400001",
                                          "short-ttl",
                                          "crash:after=",
                                          "busy:ms=1e9",
                                          "double-submit:k=0",
                                          "double-submit:k=1000000000",
                                          "redeliver:k=101",
                                          "request-lost:p=2",
                                          "request-lost:p=nan",
                                          "request-lost:nth=0",
                                          "response-lost:x=1",
                                          "short-ttl:ms=9223372036854775807",
                                          "slow:ms=5,,",
                                          ":",
                                          "slow:ms=5,p"};
const std::vector<std::string> kBadRetries{"attempts=0",
                                           "attempts=101",
                                           "timeout-ms=0",
                                           "timeout-ms=86400001",
                                           "base-ms=-1",
                                           "cap-ms=99999999999999999999",
                                           "backoff=linear",
                                           "jitter=some",
                                           "key=maybe",
                                           "query=1",
                                           "colour=red",
                                           "attempts",
                                           ",",
                                           "attempts=5,,"};

struct Command {
  std::vector<std::string> base;                                             // valid start
  std::vector<std::pair<std::string, const std::vector<std::string>*>> bad;  // option, values
};

std::vector<Command> commands(const std::string& db) {
  static const std::vector<std::string> kNumberOptionValues = kBadValues;
  const auto* values = &kNumberOptionValues;
  std::vector<Command> out;
  for (const char* strategy : {"select-insert", "naive", "lock-table", "token"})
    out.push_back({{strategy, "--db", db, "--biz-seq", "m1", "--from", "alice", "--to", "bob",
                    "--amount", "1"},
                   {{"--amount", values},
                    {"--biz-seq", &kBadIds},
                    {"--from", &kBadIds},
                    {"--to", &kBadIds},
                    {"--fault", &kBadFaults},
                    {"--busy-timeout-ms", values}}});
  out.push_back({{"lock-table", "--db", db, "--biz-seq", "m2", "--from", "alice", "--to", "bob",
                  "--amount", "1"},
                 {{"--lock-ttl-ms", values}}});
  out.push_back({{"token", "issue", "--db", db}, {{"--ttl-ms", values}}});
  out.push_back({{"init", "--db", db, "--force"}, {{"--account", values}}});
  out.push_back({{"history", "--db", db}, {{"--limit", values}, {"--biz-seq", &kBadIds}}});
  for (const char* verb : {"simulate", "compare"}) {
    std::vector<std::string> base{verb, "--requests", "3"};
    if (std::string(verb) == "simulate") base.insert(base.end(), {"--strategy", "naive"});
    out.push_back({base,
                   {{"--requests", values},
                    {"--seed", values},
                    {"--concurrency", values},
                    {"--lock-ttl-ms", values},
                    {"--token-ttl-ms", values},
                    {"--fault", &kBadFaults},
                    {"--retry", &kBadRetries},
                    {"--format", values}}});
  }
  out.push_back(
      {{"explore", "--strategy", "naive"},
       {{"--duplicates", values}, {"--lock-ttl-ms", values}, {"--max-interleavings", values}}});
  return out;
}

void expect_refused(const ProcessOutcome& outcome, const std::string& what) {
  RC_ASSERT_FALSE(outcome.timed_out);
  RC_LOG() << what << "\nstderr: " << outcome.stderr_text;
  RC_ASSERT(outcome.exit_code == 2);
  RC_ASSERT(outcome.stderr_text.rfind("error: ", 0) == 0);
  RC_ASSERT(std::count(outcome.stderr_text.begin(), outcome.stderr_text.end(), '\n') == 1);
#ifndef IDEMLAB_SANITIZE  // ASan's shadow memory inflates the figure
  RC_ASSERT(outcome.peak_kib * 1024 <= limits::kMemoryBudgetBytes);
#endif
}

// A line of a scenario file that cannot be right (drawn inside a property).
std::string bad_scenario_line() {
  switch (*rc::gen::inRange(0, 5)) {
    case 0: {
      // Out of range for every whole-number key but seed, which takes [0, 2^63 - 1].
      const std::string key = *rc::gen::elementOf(std::vector<std::string>{
          "requests", "concurrency", "seed", "lock_ttl_ms", "token_ttl_ms"});
      std::vector<std::string> values{"-1", "\"x\"", "1.5", "true", "[1]", "{a = 1}"};
      if (key != "seed")
        values.insert(values.end(), {"0", "2147483648", "4294967297", "1000000000000",
                                     "9223372036854775807", "100000000"});
      return key + " = " + *rc::gen::elementOf(values);
    }
    case 1:
      return "faults = [\"" + *rc::gen::elementOf(kBadFaults) + "\"]";
    case 2:
      return "retry = \"" + *rc::gen::elementOf(kBadRetries) + "\"";
    case 3:
      return *rc::gen::elementOf(std::vector<std::string>{
          "faults = \"response-lost:p=1\"", "faults = [1, 2]", "retry = 5", "name = 3",
          "exposes = \"naive\"", "unknown_key = 1", "requests = ", "= 1", "[table]\nx = 1",
          "requests = 5\nrequests = 6"});
    default:
      return "requests = 5 " + *rc::gen::container<std::string>(rc::gen::inRange<char>(1, 127)) +
             " ][";
  }
}

}  // namespace

TEST_CASE("malformed command lines are usage errors that change nothing") {
  test::LedgerFile ledger;
  {
    Connection connection = ledger.open();
    REQUIRE(
        connection.exec_script("INSERT INTO token VALUES ('t', 0, 1, NULL, NULL, NULL)").is_ok());
  }
  const std::string before = ledger_content(ledger);
  const std::vector<Command> all = commands(ledger.path());
  bool ok = rc::check("a bad value anywhere is refused", [&] {
    const Command& command = *rc::gen::elementOf(all);
    std::vector<std::string> args = command.base;
    const int bad_count = *rc::gen::inRange(1, 3);
    for (int i = 0; i < bad_count; ++i) {
      const auto& [option, values] = *rc::gen::elementOf(command.bad);
      const std::string value = *rc::gen::elementOf(*values);
      const int form = *rc::gen::inRange(0, 2);
      if (form == 0)
        args.insert(args.end(), {option, value});
      else
        args.push_back(option + "=" + value);
    }
    if (*rc::gen::inRange(0, 4) == 0) args.push_back("--json");
    expect_refused(run_idemlab(args, ledger.folder()), fmt::format("{}", fmt::join(args, " ")));
    RC_ASSERT(ledger_content(ledger) == before);
  });
  CHECK(ok);
}

TEST_CASE("malformed scenario files are usage errors naming the file") {
  test::LedgerFile ledger;
  const std::string path = ledger.folder() + "/bad.toml";
  bool ok = rc::check("a bad line anywhere is refused", [&] {
    std::vector<std::string> lines{"name = \"fuzz\"", "requests = 3"};
    const int bad_count = *rc::gen::inRange(1, 4);
    for (int i = 0; i < bad_count; ++i)
      lines.insert(lines.begin() + *rc::gen::inRange<long>(0, static_cast<long>(lines.size()) + 1),
                   bad_scenario_line());
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    std::ofstream(path) << text;
    for (const char* verb : {"simulate", "compare"}) {
      std::vector<std::string> args{verb, "--scenario", path};
      if (std::string(verb) == "simulate") args.insert(args.end(), {"--strategy", "naive"});
      const ProcessOutcome outcome = run_idemlab(args, ledger.folder());
      expect_refused(outcome, text);
      RC_ASSERT(outcome.stderr_text.find("bad.toml") != std::string::npos);
    }
  });
  CHECK(ok);
}
