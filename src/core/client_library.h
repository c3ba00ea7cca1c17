// ClientLibrary: a C library idemlab talks to a server or a client through (libpq, libmariadb,
// hiredis, libmicrohttpd, librabbitmq), loaded the first time it is needed. Linked at build
// time, the database clients and the 27 libraries they pull in (TLS, Kerberos, LDAP) cost every
// process 8 ms at startup (hyperfine, 300 runs), more than a whole one-attempt transfer on
// SQLite; loaded on demand, a command that needs none of them never pays for them.
#pragma once

#include <mutex>
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

// Fills one entry of a table of function pointers from `library`; false when it is missing.
template <typename T>
bool resolve(const ClientLibrary& library, const char* name, T* out) {
  *out = reinterpret_cast<T>(library.symbol(name));
  return *out != nullptr;
}

// The one lazy loader of a client library's functions: `Api` is a table of function pointers,
// `resolve_all` fills it (with resolve() per entry) and says whether every one was found. The
// library is loaded and the table filled once per process, under a lock (compare --jobs and
// serve open connections from several threads); `out` then points at the table.
template <typename Api>
Status load_client(const char* soname, const char* package,
                   bool (*resolve_all)(const ClientLibrary&, Api*), const Api** out) {
  static std::mutex mutex;
  static Api api;
  static bool resolved = false;
  std::lock_guard lock(mutex);
  ClientLibrary* library = nullptr;
  RETURN_IF_ERROR(ClientLibrary::load(soname, package, &library));
  if (!resolved && !resolve_all(*library, &api))
    return Status::ledger(std::string(soname) + " lacks a function idemlab needs");
  resolved = true;
  *out = &api;
  return Status::ok();
}

}  // namespace idemlab
