// Status: the one error type that crosses module boundaries (after LevelDB's Status).
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace idemlab {

// What went wrong, in the core's terms. The command line maps each to an exit code in one
// table (cli/exit_code.cpp); nothing below src/cli/ knows exit codes.
enum class StatusCode {
  kOk,
  kUsage,   // bad command line or input; nothing was changed
  kLedger,  // the ledger file: missing, damaged, not a ledger, too new, read-only, exists
  kBusy,    // the database stayed locked: safe to retry
  // A condition that passes: a server or store went away, is full, or the disk is; nothing
  // more was done, and the same command later can work. reason() names which (snake_case).
  kUnavailable,
  kInternal,     // a bug or an unexpected SQLite error
  kInterrupted,  // SIGINT or SIGTERM stopped a run
};

class Status {
 public:
  Status() = default;
  static Status ok() { return {}; }
  static Status usage(std::string message) { return {StatusCode::kUsage, std::move(message)}; }
  // A usage error a caller tells apart by `reason` (token_required): still exit 2.
  static Status refused(std::string_view reason, std::string message) {
    Status status{StatusCode::kUsage, std::move(message)};
    status.reason_ = std::string(reason);
    return status;
  }
  static Status ledger(std::string message) { return {StatusCode::kLedger, std::move(message)}; }
  // A ledger error for a file SQLite (or the header check) finds corrupt.
  static Status damaged(std::string message) {
    Status status{StatusCode::kLedger, std::move(message)};
    status.damaged_ = true;
    return status;
  }
  static Status busy(std::string message) { return {StatusCode::kBusy, std::move(message)}; }
  // `reason`: connection_lost, server_busy, disk_full.
  static Status unavailable(std::string_view reason, std::string message) {
    Status status{StatusCode::kUnavailable, std::move(message)};
    status.reason_ = std::string(reason);
    return status;
  }
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
  const std::string& reason() const { return reason_; }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  bool damaged_ = false;
  std::string reason_;
};

// Result<T>: a value, or the Status that says why there is none (absl::StatusOr's shape). A
// function that makes something returns it, instead of a Status and an out-parameter.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: a value converts, as a Status does
  Result(Status status) : status_(std::move(status)) { assert(!status_.is_ok()); }  // NOLINT

  bool is_ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  T& operator*() { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

// Returns the Status of `expr` from the enclosing function when it is an error.
#define RETURN_IF_ERROR(expr)                                                       \
  do {                                                                              \
    if (::idemlab::Status returned_ = (expr); !returned_.is_ok()) return returned_; \
  } while (0)

// `lhs = value` of the Result `expr`, or returns its Status from the enclosing function. It is
// a declaration and two statements: write it in a block of its own, never as the body of an
// if or a loop without braces.
#define IDEMLAB_JOIN_(a, b) a##b
#define IDEMLAB_JOIN(a, b) IDEMLAB_JOIN_(a, b)
#define ASSIGN_OR_RETURN(lhs, expr) ASSIGN_OR_RETURN_(IDEMLAB_JOIN(result_, __LINE__), lhs, expr)
#define ASSIGN_OR_RETURN_(result, lhs, expr)              \
  auto result = (expr);                                   \
  if (!result.is_ok()) return std::move(result).status(); \
  lhs = std::move(result).value()

// Thrown only to unwind to main(), which prints "error: <message>" and exits with the code.
struct StatusError {
  Status status;
};

inline void throw_if_error(Status status) {
  if (!status.is_ok()) throw StatusError{std::move(status)};
}

// The command line's form of ASSIGN_OR_RETURN: the value, or unwind to main() with the error.
template <class T>
T value_or_throw(Result<T> result) {
  throw_if_error(result.status());
  return std::move(result).value();
}

}  // namespace idemlab
