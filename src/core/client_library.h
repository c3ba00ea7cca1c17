// ClientLibrary: a C library idemlab talks to a server or a client through (libpq, libmariadb,
// hiredis, libmicrohttpd, librabbitmq), loaded the first time it is needed. Linked at build
// time, the database clients and the 27 libraries they pull in (TLS, Kerberos, LDAP) cost every
// process 8 ms at startup (hyperfine, 300 runs), more than a whole one-attempt transfer on
// SQLite; loaded on demand, a command that needs none of them never pays for them.
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
