// Loading a server's C client on demand.
#include "core/client_library.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <map>
#include <mutex>

namespace idemlab {

Status ClientLibrary::load(const char* soname, const char* package, ClientLibrary** out) {
  static std::mutex mutex;
  static std::map<std::string, ClientLibrary> loaded;
  std::lock_guard lock(mutex);
  auto found = loaded.find(soname);
  if (found == loaded.end()) {
    void* handle = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return Status::ledger(
          fmt::format("cannot load {} (install the package {}): {}", soname, package, ::dlerror()));
    found = loaded.emplace(soname, ClientLibrary()).first;
    found->second.handle_ = handle;
  }
  *out = &found->second;
  return Status::ok();
}

void* ClientLibrary::symbol(const char* name) const {
  return ::dlsym(handle_, name);
}

}  // namespace idemlab
