// Test seam: a VFS in front of SQLite's default one that fails the Nth write, sync or truncate,
// counted across every file a connection touches (the ledger, its WAL, a journal), as SQLite's
// own ioerr.test and diskfull.test do. A full disk fails a write or a truncate with SQLITE_FULL
// and a sync with SQLITE_IOERR_FSYNC and errno ENOSPC (a filesystem that allocates late); an
// I/O error fails each with its SQLITE_IOERR_* code. A persistent fault fails every operation
// from the Nth on (a disk that stays full), a transient one the Nth alone. While it lives it is
// the default VFS, so the product's own code paths open ledgers through it.
#pragma once

#include <sqlite3.h>

#include <cerrno>
#include <cstdint>

namespace idemlab::test {

class FaultVfs {
 public:
  enum class Failure { kFull, kIoError };

  FaultVfs() {
    real_ = sqlite3_vfs_find(nullptr);
    vfs_ = *real_;
    vfs_.zName = "idemlab-fault";
    vfs_.szOsFile = static_cast<int>(sizeof(File)) + real_->szOsFile;
    vfs_.pAppData = this;
    vfs_.xOpen = open;
    sqlite3_vfs_register(&vfs_, 1);
  }
  ~FaultVfs() {
    sqlite3_vfs_unregister(&vfs_);
    sqlite3_vfs_register(real_, 1);
  }
  FaultVfs(const FaultVfs&) = delete;
  FaultVfs& operator=(const FaultVfs&) = delete;

  // Fails the `nth` operation from now on (1-based; 0: none), and every later one if persistent.
  void arm(int64_t nth, Failure failure, bool persistent) {
    counted_ = 0;
    nth_ = nth;
    failure_ = failure;
    persistent_ = persistent;
    fired_ = false;
  }
  void disarm() { arm(0, Failure::kFull, false); }
  int64_t counted() const { return counted_; }  // writes, syncs and truncates since arm()
  bool fired() const { return fired_; }

 private:
  struct File {
    sqlite3_file base;
    FaultVfs* vfs;
    sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
  };
  enum class Operation { kWrite, kSync, kTruncate };

  static File* of(sqlite3_file* file) { return reinterpret_cast<File*>(file); }

  // The code the operation fails with, or SQLITE_OK when it is not its turn.
  int fault(Operation operation) {
    ++counted_;
    if (nth_ == 0 || counted_ < nth_ || (counted_ > nth_ && !persistent_)) return SQLITE_OK;
    fired_ = true;
    if (failure_ == Failure::kFull) {
      if (operation != Operation::kSync) return SQLITE_FULL;
      errno = ENOSPC;
      return SQLITE_IOERR_FSYNC;
    }
    errno = EIO;
    switch (operation) {
      case Operation::kWrite:
        return SQLITE_IOERR_WRITE;
      case Operation::kSync:
        return SQLITE_IOERR_FSYNC;
      case Operation::kTruncate:
        break;
    }
    return SQLITE_IOERR_TRUNCATE;
  }

  static int open(sqlite3_vfs* vfs, const char* name, sqlite3_file* file, int flags, int* out) {
    auto* self = static_cast<FaultVfs*>(vfs->pAppData);
    File* wrapped = of(file);
    wrapped->vfs = self;
    wrapped->base.pMethods = nullptr;
    const int rc = self->real_->xOpen(self->real_, name, wrapped->real(), flags, out);
    if (rc == SQLITE_OK && wrapped->real()->pMethods) wrapped->base.pMethods = &kMethods;
    return rc;
  }

  static int close(sqlite3_file* file) { return real_of(file)->pMethods->xClose(real_of(file)); }
  static sqlite3_file* real_of(sqlite3_file* file) { return of(file)->real(); }
  static int read(sqlite3_file* f, void* buffer, int amount, sqlite3_int64 offset) {
    return real_of(f)->pMethods->xRead(real_of(f), buffer, amount, offset);
  }
  static int write(sqlite3_file* f, const void* buffer, int amount, sqlite3_int64 offset) {
    if (const int rc = of(f)->vfs->fault(Operation::kWrite)) return rc;
    return real_of(f)->pMethods->xWrite(real_of(f), buffer, amount, offset);
  }
  static int truncate(sqlite3_file* f, sqlite3_int64 size) {
    if (const int rc = of(f)->vfs->fault(Operation::kTruncate)) return rc;
    return real_of(f)->pMethods->xTruncate(real_of(f), size);
  }
  static int sync(sqlite3_file* f, int flags) {
    if (const int rc = of(f)->vfs->fault(Operation::kSync)) return rc;
    return real_of(f)->pMethods->xSync(real_of(f), flags);
  }
  static int size(sqlite3_file* f, sqlite3_int64* out) {
    return real_of(f)->pMethods->xFileSize(real_of(f), out);
  }
  static int lock(sqlite3_file* f, int level) {
    return real_of(f)->pMethods->xLock(real_of(f), level);
  }
  static int unlock(sqlite3_file* f, int level) {
    return real_of(f)->pMethods->xUnlock(real_of(f), level);
  }
  static int reserved(sqlite3_file* f, int* out) {
    return real_of(f)->pMethods->xCheckReservedLock(real_of(f), out);
  }
  static int control(sqlite3_file* f, int op, void* arg) {
    return real_of(f)->pMethods->xFileControl(real_of(f), op, arg);
  }
  static int sector(sqlite3_file* f) { return real_of(f)->pMethods->xSectorSize(real_of(f)); }
  static int device(sqlite3_file* f) {
    return real_of(f)->pMethods->xDeviceCharacteristics(real_of(f));
  }
  static int shm_map(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
    return real_of(f)->pMethods->xShmMap(real_of(f), region, size, extend, out);
  }
  static int shm_lock(sqlite3_file* f, int offset, int n, int flags) {
    return real_of(f)->pMethods->xShmLock(real_of(f), offset, n, flags);
  }
  static void shm_barrier(sqlite3_file* f) { real_of(f)->pMethods->xShmBarrier(real_of(f)); }
  static int shm_unmap(sqlite3_file* f, int remove) {
    return real_of(f)->pMethods->xShmUnmap(real_of(f), remove);
  }
  static int fetch(sqlite3_file* f, sqlite3_int64 offset, int amount, void** out) {
    return real_of(f)->pMethods->xFetch(real_of(f), offset, amount, out);
  }
  static int unfetch(sqlite3_file* f, sqlite3_int64 offset, void* page) {
    return real_of(f)->pMethods->xUnfetch(real_of(f), offset, page);
  }

  static constexpr sqlite3_io_methods kMethods = {
      3,       close,  read,   write,   truncate, sync,        size,      lock,  unlock, reserved,
      control, sector, device, shm_map, shm_lock, shm_barrier, shm_unmap, fetch, unfetch};

  sqlite3_vfs* real_ = nullptr;
  sqlite3_vfs vfs_{};
  int64_t counted_ = 0;
  int64_t nth_ = 0;
  Failure failure_ = Failure::kFull;
  bool persistent_ = false;
  bool fired_ = false;
};

}  // namespace idemlab::test
