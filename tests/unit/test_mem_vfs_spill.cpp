// Tests for db/sqlite/mem_vfs_spill: the spill file's write-back cache reads back exactly what
// was written, through evictions, read-ahead over slots that hold newer blocks, and cuts, and
// a block rewritten while it stays cached costs no system call. A cache of 8 blocks makes
// every eviction path run on a file of a few dozen blocks.
#include <doctest/doctest.h>
#include <rapidcheck.h>
#include <sqlite3.h>

#include <string>

#include "db/sqlite/mem_vfs_spill.h"

using namespace idemlab;
using memvfs::SpillFile;

namespace {

constexpr int64_t kBlock = 4096;
constexpr int64_t kSmallCache = 8 * kBlock;

// `bytes` copies of `c`.
std::string filled(int64_t bytes, char c) {
  return std::string(static_cast<size_t>(bytes), c);
}

std::string read_back(SpillFile& file, int64_t amount, int64_t offset) {
  std::string out(static_cast<size_t>(amount), '?');
  REQUIRE(file.read(out.data(), amount, offset) == SQLITE_OK);
  return out;
}

}  // namespace

TEST_CASE("a spill block rewritten while it stays cached costs no system call") {
  SpillFile file(kSmallCache);
  REQUIRE(file.create() == SQLITE_OK);
  for (char c = 'a'; c <= 'z'; ++c)
    REQUIRE(file.write(filled(kBlock, c).data(), kBlock, 0) == SQLITE_OK);
  CHECK(file.file_writes() == 0);
  // Block 8 takes block 0's slot: block 0 reaches the file then, once.
  REQUIRE(file.write(filled(kBlock, '8').data(), kBlock, 8 * kBlock) == SQLITE_OK);
  CHECK(file.file_writes() == 1);
  CHECK(read_back(file, kBlock, 0) == filled(kBlock, 'z'));
  CHECK(read_back(file, kBlock, 8 * kBlock) == filled(kBlock, '8'));
  CHECK(read_back(file, kBlock, 4 * kBlock) == filled(kBlock, '\0'));  // never written
}

TEST_CASE("a spill file reads back what was written, through evictions and cuts") {
  const bool ok = rc::check("every read matches a plain copy of the bytes", [] {
    SpillFile file(kSmallCache);
    RC_ASSERT(file.create() == SQLITE_OK);
    std::string model;
    const auto steps = *rc::gen::inRange(1, 120);
    for (int step = 0; step < steps; ++step) {
      const auto kind = *rc::gen::inRange(0, 10);
      if (kind < 5) {  // a write: mostly whole blocks, as SQLite writes its pages
        const bool whole = kind < 3;
        const int64_t offset = whole ? *rc::gen::inRange<int64_t>(0, 40) * kBlock
                                     : *rc::gen::inRange<int64_t>(0, 40 * kBlock);
        const int64_t amount = whole ? kBlock * *rc::gen::inRange<int64_t>(1, 3)
                                     : *rc::gen::inRange<int64_t>(1, 3 * kBlock);
        const std::string bytes = filled(amount, static_cast<char>('A' + step % 50));
        RC_ASSERT(file.write(bytes.data(), amount, offset) == SQLITE_OK);
        if (static_cast<int64_t>(model.size()) < offset + amount)
          model.resize(static_cast<size_t>(offset + amount), '\0');
        model.replace(static_cast<size_t>(offset), static_cast<size_t>(amount), bytes);
      } else if (kind < 9 && !model.empty()) {  // a read within the file
        const auto offset = *rc::gen::inRange<int64_t>(0, static_cast<int64_t>(model.size()));
        const auto amount = *rc::gen::inRange<int64_t>(
            1, std::min<int64_t>(static_cast<int64_t>(model.size()) - offset, 20 * kBlock) + 1);
        std::string got(static_cast<size_t>(amount), '?');
        RC_ASSERT(file.read(got.data(), amount, offset) == SQLITE_OK);
        RC_ASSERT(got == model.substr(static_cast<size_t>(offset), static_cast<size_t>(amount)));
      } else {  // a cut, or a truncate that grows the file
        const auto size = *rc::gen::inRange<int64_t>(0, 44 * kBlock);
        RC_ASSERT(file.truncate(size) == SQLITE_OK);
        model.resize(static_cast<size_t>(size), '\0');
      }
    }
    std::string whole(model.size(), '?');
    RC_ASSERT(file.read(whole.data(), static_cast<int64_t>(model.size()), 0) == SQLITE_OK);
    RC_ASSERT(whole == model);
  });
  CHECK(ok);
}
