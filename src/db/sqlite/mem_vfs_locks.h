// Lock rules of the in-memory VFS (mem_vfs_locks.cpp). Every function expects the caller to
// hold the file's mutex and returns SQLITE_OK or SQLITE_BUSY.
#pragma once

#include "db/sqlite/mem_vfs_file.h"

namespace idemlab::memvfs {

// The WAL index slots one handle holds, one bit per slot.
struct SlotMasks {
  unsigned shared = 0;
  unsigned exclusive = 0;
};

// Raises `handle`'s file lock from `*level` to `wanted` (xLock), or lowers it (xUnlock).
int lock_file(MemFile& file, const void* handle, int* level, int wanted);
int unlock_file(MemFile& file, const void* handle, int* level, int wanted);
// Whether any handle holds RESERVED or above (xCheckReservedLock).
int check_reserved(const MemFile& file);

// xShmLock: takes or releases `count` slots from `offset`, as SQLITE_SHM_* `flags` say.
int lock_slots(MemFile& file, SlotMasks& held, int offset, int count, int flags);

}  // namespace idemlab::memvfs
