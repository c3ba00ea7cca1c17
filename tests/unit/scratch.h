// Test seam: a ledger file in a fresh temporary folder, removed afterwards, for what runs on
// files (one-attempt commands, the audit command, migrations). What the simulator and the
// explorer run on is a ScratchLedger (sim/scratch_ledger.h).
#pragma once

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "db/schema/ledger_file.h"

namespace idemlab::test {

class LedgerFile {
 public:
  explicit LedgerFile(std::vector<OpeningBalance> accounts = {
                          {"alice", 100000}, {"bob", 0}, {"carol", 500}}) {
    std::string pattern = (std::filesystem::temp_directory_path() / "idemlab-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    folder_ = pattern;
    path_ = folder_ + "/ledger.db";
    Status status = create_ledger(path_, accounts, false);
    REQUIRE_MESSAGE(status.is_ok(), status.message());
  }
  ~LedgerFile() { std::filesystem::remove_all(folder_); }

  const std::string& path() const { return path_; }
  const std::string& folder() const { return folder_; }

  Connection open(int busy_timeout_ms = 0) const {
    Result<Connection> connection = open_ledger(path_, Access::kWrite, busy_timeout_ms);
    REQUIRE_MESSAGE(connection.is_ok(), connection.status().message());
    return std::move(connection).value();
  }

  int64_t scalar(const std::string& sql) const {
    Connection connection = open();
    int64_t value = -1;
    StepResult result = connection.query(sql, {}, [&](const Row& row) { value = as_int(row[0]); });
    REQUIRE(result.ok());
    return value;
  }

 private:
  std::string folder_;
  std::string path_;
};

}  // namespace idemlab::test
