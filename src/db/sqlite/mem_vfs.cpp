// The VFS and I/O method tables: names map to shared MemFiles; what is not about files or
// locks (randomness, time, sleep) goes to the default VFS.
#include "db/sqlite/mem_vfs.h"

#include <fmt/format.h>

#include <atomic>
#include <cstring>
#include <map>
#include <new>

#include "db/sqlite/mem_vfs_locks.h"

namespace idemlab {

namespace memvfs {
namespace {

struct Handle {
  sqlite3_file base;  // first: SQLite sees a Handle as a sqlite3_file
  std::shared_ptr<MemFile>* file;
  int level;  // its SQLITE_LOCK_* on the file
  SlotMasks slots;
  bool mapped;  // it uses the WAL index
};

std::mutex registry_mutex;
std::map<std::string, std::shared_ptr<MemFile>>& registry() {
  static auto* files = new std::map<std::string, std::shared_ptr<MemFile>>();
  return *files;
}

MemFile& file_of(sqlite3_file* f) {
  return **reinterpret_cast<Handle*>(f)->file;
}
Handle& handle_of(sqlite3_file* f) {
  return *reinterpret_cast<Handle*>(f);
}

int x_close(sqlite3_file* f) {
  Handle& h = handle_of(f);
  {
    std::lock_guard lock((*h.file)->mutex);
    int level = h.level;
    unlock_file(**h.file, &h, &level, SQLITE_LOCK_NONE);
    h.level = level;
  }
  delete h.file;
  h.file = nullptr;
  return SQLITE_OK;
}

int x_read(sqlite3_file* f, void* out, int amount, sqlite3_int64 offset) {
  std::lock_guard lock(file_of(f).mutex);
  return file_of(f).read(out, amount, offset);
}

int x_write(sqlite3_file* f, const void* in, int amount, sqlite3_int64 offset) {
  std::lock_guard lock(file_of(f).mutex);
  return file_of(f).write(in, amount, offset);
}

int x_truncate(sqlite3_file* f, sqlite3_int64 size) {
  std::lock_guard lock(file_of(f).mutex);
  return file_of(f).truncate(size);
}

int x_sync(sqlite3_file*, int) {
  return SQLITE_OK;
}

int x_file_size(sqlite3_file* f, sqlite3_int64* out) {
  std::lock_guard lock(file_of(f).mutex);
  *out = file_of(f).size();
  return SQLITE_OK;
}

int x_lock(sqlite3_file* f, int wanted) {
  std::lock_guard lock(file_of(f).mutex);
  return lock_file(file_of(f), f, &handle_of(f).level, wanted);
}

int x_unlock(sqlite3_file* f, int wanted) {
  std::lock_guard lock(file_of(f).mutex);
  return unlock_file(file_of(f), f, &handle_of(f).level, wanted);
}

int x_check_reserved(sqlite3_file* f, int* out) {
  std::lock_guard lock(file_of(f).mutex);
  *out = check_reserved(file_of(f));
  return SQLITE_OK;
}

int x_file_control(sqlite3_file*, int, void*) {
  return SQLITE_NOTFOUND;
}
int x_sector_size(sqlite3_file*) {
  return 4096;
}
int x_device_characteristics(sqlite3_file*) {
  return SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

int x_shm_map(sqlite3_file* f, int region, int region_size, int extend, void volatile** out) {
  MemFile& file = file_of(f);
  std::lock_guard lock(file.mutex);
  Handle& h = handle_of(f);
  if (!h.mapped) ++file.shm_users;
  h.mapped = true;
  const size_t wanted = static_cast<size_t>(region) + 1;
  if (file.regions.size() < wanted && !extend) {
    *out = nullptr;
    return SQLITE_OK;
  }
  while (file.regions.size() < wanted)
    file.regions.push_back(std::make_unique<char[]>(static_cast<size_t>(region_size)));
  *out = file.regions[static_cast<size_t>(region)].get();
  return SQLITE_OK;
}

int x_shm_lock(sqlite3_file* f, int offset, int count, int flags) {
  std::lock_guard lock(file_of(f).mutex);
  return lock_slots(file_of(f), handle_of(f).slots, offset, count, flags);
}

void x_shm_barrier(sqlite3_file*) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

int x_shm_unmap(sqlite3_file* f, int delete_flag) {
  MemFile& file = file_of(f);
  std::lock_guard lock(file.mutex);
  Handle& h = handle_of(f);
  lock_slots(file, h.slots, 0, SQLITE_SHM_NLOCK, SQLITE_SHM_UNLOCK);
  if (h.mapped && --file.shm_users == 0 && delete_flag) file.regions.clear();
  h.mapped = false;
  return SQLITE_OK;
}

const sqlite3_io_methods kMethods = {2,
                                     x_close,
                                     x_read,
                                     x_write,
                                     x_truncate,
                                     x_sync,
                                     x_file_size,
                                     x_lock,
                                     x_unlock,
                                     x_check_reserved,
                                     x_file_control,
                                     x_sector_size,
                                     x_device_characteristics,
                                     x_shm_map,
                                     x_shm_lock,
                                     x_shm_barrier,
                                     x_shm_unmap,
                                     nullptr,
                                     nullptr};

sqlite3_vfs* base_vfs() {
  return sqlite3_vfs_find(nullptr);
}

int x_open(sqlite3_vfs*, const char* name, sqlite3_file* f, int flags, int* out_flags) {
  Handle& h = *new (f) Handle{};  // SQLite hands over raw memory of szOsFile bytes
  std::shared_ptr<MemFile> file;
  const bool main_db = (flags & SQLITE_OPEN_MAIN_DB) != 0;
  if (!name) {
    file = std::make_shared<MemFile>(false);  // a temporary file: nobody else opens it
  } else {
    std::lock_guard lock(registry_mutex);
    auto& slot = registry()[name];
    if (!slot && !(flags & SQLITE_OPEN_CREATE)) {
      registry().erase(name);
      return SQLITE_CANTOPEN;
    }
    if (!slot) slot = std::make_shared<MemFile>(main_db);
    file = slot;
  }
  h.file = new std::shared_ptr<MemFile>(std::move(file));
  h.base.pMethods = &kMethods;
  if (out_flags) *out_flags = flags;
  return SQLITE_OK;
}

int x_delete(sqlite3_vfs*, const char* name, int) {
  std::lock_guard lock(registry_mutex);
  registry().erase(name);
  return SQLITE_OK;
}

int x_access(sqlite3_vfs*, const char* name, int, int* out) {
  std::lock_guard lock(registry_mutex);
  auto found = registry().find(name);
  *out = found != registry().end() && found->second->size() > 0;
  return SQLITE_OK;
}

int x_full_pathname(sqlite3_vfs*, const char* name, int size, char* out) {
  sqlite3_snprintf(size, out, "%s", name);
  return SQLITE_OK;
}

int x_randomness(sqlite3_vfs*, int size, char* out) {
  return base_vfs()->xRandomness(base_vfs(), size, out);
}
int x_sleep(sqlite3_vfs*, int micros) {
  return base_vfs()->xSleep(base_vfs(), micros);
}
int x_current_time(sqlite3_vfs*, double* out) {
  return base_vfs()->xCurrentTime(base_vfs(), out);
}
int x_last_error(sqlite3_vfs*, int, char*) {
  return 0;
}
int x_current_time_int64(sqlite3_vfs*, sqlite3_int64* out) {
  return base_vfs()->xCurrentTimeInt64(base_vfs(), out);
}

sqlite3_vfs make_vfs() {
  sqlite3_vfs vfs{};
  vfs.iVersion = 2;
  vfs.szOsFile = sizeof(Handle);
  vfs.mxPathname = 512;
  vfs.zName = kMemVfsName;
  vfs.xOpen = x_open;
  vfs.xDelete = x_delete;
  vfs.xAccess = x_access;
  vfs.xFullPathname = x_full_pathname;
  vfs.xRandomness = x_randomness;
  vfs.xSleep = x_sleep;
  vfs.xCurrentTime = x_current_time;
  vfs.xGetLastError = x_last_error;
  vfs.xCurrentTimeInt64 = x_current_time_int64;
  return vfs;
}

}  // namespace
}  // namespace memvfs

Status register_mem_vfs(int64_t spill_bytes) {
  memvfs::set_spill_bytes(spill_bytes);
  static sqlite3_vfs vfs = memvfs::make_vfs();
  static const int registered = sqlite3_vfs_register(&vfs, 0);
  if (registered != SQLITE_OK)
    return Status::internal(
        fmt::format("cannot register the in-memory VFS: {}", sqlite3_errstr(registered)));
  return Status::ok();
}

std::string mem_vfs_uri(const std::string& name) {
  return fmt::format("file:/{}?vfs={}", name, kMemVfsName);
}

void mem_vfs_remove(const std::string& name) {
  std::lock_guard lock(memvfs::registry_mutex);
  const std::string path = "/" + name;
  for (const char* suffix : {"", "-wal", "-journal"}) memvfs::registry().erase(path + suffix);
}

}  // namespace idemlab
