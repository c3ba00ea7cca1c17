// ClientLibrary: a server's C client (libpq, libmariadb), loaded the first time a ledger on that
// server is opened. Linked at build time, the two clients and the 27 libraries they pull in
// (TLS, Kerberos, LDAP) cost every process 8 ms at startup (hyperfine, 300 runs), more than a
// whole one-attempt transfer on SQLite; loaded on demand, SQLite users never pay for them.
#pragma once

#include <string>

#include "core/status.h"

namespace idemlab {

class ClientLibrary {
 public:
  // Loads `soname` (e.g. "libpq.so.5") once per process; `package` names the Debian package
  // that installs it, for the error.
  static Status load(const char* soname, const char* package, ClientLibrary** out);
  // The address of `name`, or nullptr.
  void* symbol(const char* name) const;

 private:
  void* handle_ = nullptr;
};

// Fills a table of function pointers from `library`: every name must resolve.
template <typename T>
bool resolve(const ClientLibrary& library, const char* name, T* out) {
  *out = reinterpret_cast<T>(library.symbol(name));
  return *out != nullptr;
}

}  // namespace idemlab
