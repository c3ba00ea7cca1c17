// Status: the one error type that crosses module boundaries (after LevelDB's Status).
#pragma once

#include <string>
#include <utility>

#include "core/exit_code.h"

namespace idemlab {

class Status {
 public:
  Status() = default;
  static Status ok() { return {}; }
  static Status usage(std::string message) { return {ExitCode::kUsage, std::move(message)}; }
  static Status ledger(std::string message) { return {ExitCode::kLedger, std::move(message)}; }
  // A ledger error for a file SQLite (or the header check) finds corrupt.
  static Status damaged(std::string message) {
    Status status{ExitCode::kLedger, std::move(message)};
    status.damaged_ = true;
    return status;
  }
  static Status busy(std::string message) { return {ExitCode::kRetryable, std::move(message)}; }
  static Status internal(std::string message) { return {ExitCode::kInternal, std::move(message)}; }
  static Status interrupted(std::string message) {
    return {ExitCode::kInterrupted, std::move(message)};
  }

  bool is_ok() const { return code_ == ExitCode::kOk; }
  ExitCode code() const { return code_; }
  const std::string& message() const { return message_; }
  bool is_damaged() const { return damaged_; }

 private:
  Status(ExitCode code, std::string message) : code_(code), message_(std::move(message)) {}
  ExitCode code_ = ExitCode::kOk;
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
