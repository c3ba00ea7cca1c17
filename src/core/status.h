// Status: the one error type that crosses module boundaries (after LevelDB's Status).
#pragma once

#include <string>
#include <utility>

namespace idemlab {

// What went wrong, in the core's terms. The command line maps each to an exit code in one
// table (cli/exit_code.cpp); nothing below src/cli/ knows exit codes.
enum class StatusCode {
  kOk,
  kUsage,        // bad command line or input; nothing was changed
  kLedger,       // the ledger file: missing, damaged, not a ledger, too new, read-only, exists
  kBusy,         // the database stayed locked: safe to retry
  kInternal,     // a bug or an unexpected SQLite error
  kInterrupted,  // SIGINT or SIGTERM stopped a run
};

class Status {
 public:
  Status() = default;
  static Status ok() { return {}; }
  static Status usage(std::string message) { return {StatusCode::kUsage, std::move(message)}; }
  static Status ledger(std::string message) { return {StatusCode::kLedger, std::move(message)}; }
  // A ledger error for a file SQLite (or the header check) finds corrupt.
  static Status damaged(std::string message) {
    Status status{StatusCode::kLedger, std::move(message)};
    status.damaged_ = true;
    return status;
  }
  static Status busy(std::string message) { return {StatusCode::kBusy, std::move(message)}; }
  static Status internal(std::string message) {
    return {StatusCode::kInternal, std::move(message)};
  }
  static Status interrupted(std::string message) {
    return {StatusCode::kInterrupted, std::move(message)};
  }

  bool is_ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  bool is_damaged() const { return damaged_; }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  bool damaged_ = false;
};

// Thrown only to unwind to main(), which prints "error: <message>" and exits with the code.
struct StatusError {
  Status status;
};

inline void throw_if_error(Status status) {
  if (!status.is_ok()) throw StatusError{std::move(status)};
}

}  // namespace idemlab
