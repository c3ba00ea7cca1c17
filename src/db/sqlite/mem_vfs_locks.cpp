// SQLite's locks, in memory: the five-level file lock (NONE, SHARED, RESERVED, PENDING,
// EXCLUSIVE) and the WAL index's slot locks, with the rules the unix VFS applies between
// processes. The callers hold the file's mutex.
#include "db/sqlite/mem_vfs_locks.h"

namespace idemlab::memvfs {

int lock_file(MemFile& file, const void* handle, int* level, int wanted) {
  if (*level >= wanted) return SQLITE_OK;
  if (wanted == SQLITE_LOCK_SHARED) {
    if (file.pending || file.exclusive) return SQLITE_BUSY;
    ++file.shared;
    *level = SQLITE_LOCK_SHARED;
    return SQLITE_OK;
  }
  if (wanted == SQLITE_LOCK_RESERVED) {
    if (file.reserved || file.exclusive) return SQLITE_BUSY;
    file.reserved = handle;
    *level = SQLITE_LOCK_RESERVED;
    return SQLITE_OK;
  }
  // EXCLUSIVE, through PENDING: no new reader gets in while this one waits for the others.
  if (file.pending && file.pending != handle) return SQLITE_BUSY;
  if (file.exclusive && file.exclusive != handle) return SQLITE_BUSY;
  file.pending = handle;
  if (file.shared > 1) {
    *level = SQLITE_LOCK_PENDING;
    return SQLITE_BUSY;
  }
  file.exclusive = handle;
  *level = SQLITE_LOCK_EXCLUSIVE;
  return SQLITE_OK;
}

int unlock_file(MemFile& file, const void* handle, int* level, int wanted) {
  if (*level <= wanted) return SQLITE_OK;
  if (file.exclusive == handle) file.exclusive = nullptr;
  if (file.pending == handle) file.pending = nullptr;
  if (file.reserved == handle) file.reserved = nullptr;
  if (wanted == SQLITE_LOCK_NONE) --file.shared;
  *level = wanted;
  return SQLITE_OK;
}

int check_reserved(const MemFile& file) {
  return file.reserved || file.pending || file.exclusive;
}

int lock_slots(MemFile& file, SlotMasks& held, int offset, int count, int flags) {
  const unsigned mask = ((1u << count) - 1u) << offset;
  if (flags & SQLITE_SHM_UNLOCK) {
    for (int slot = offset; slot < offset + count; ++slot) {
      const unsigned bit = 1u << slot;
      if (held.shared & bit) --file.shm_shared[slot];
      if (held.exclusive & bit) file.shm_exclusive[slot] = false;
    }
    held.shared &= ~mask;
    held.exclusive &= ~mask;
    return SQLITE_OK;
  }
  if (flags & SQLITE_SHM_SHARED) {  // SQLite takes shared slots one at a time
    if (held.shared & mask) return SQLITE_OK;
    if (file.shm_exclusive[offset]) return SQLITE_BUSY;
    ++file.shm_shared[offset];
    held.shared |= mask;
    return SQLITE_OK;
  }
  for (int slot = offset; slot < offset + count; ++slot) {
    const unsigned bit = 1u << slot;
    const int others_reading = file.shm_shared[slot] - ((held.shared & bit) ? 1 : 0);
    if ((file.shm_exclusive[slot] && !(held.exclusive & bit)) || others_reading > 0)
      return SQLITE_BUSY;
  }
  for (int slot = offset; slot < offset + count; ++slot) file.shm_exclusive[slot] = true;
  held.exclusive |= mask;
  return SQLITE_OK;
}

}  // namespace idemlab::memvfs
