# e2e: damaged ledger files (issue 18). Copies of a small ledger damaged by fixed seeds: cut
# short, bits flipped in the header, in page 2 or in the last page, a random 200-byte block.
# On each, a write, audit and accounts: a file SQLite's integrity_check calls damaged is never
# written, a refused write leaves every byte, and no command exits 1 or dies (audit reports
# damage as a finding, exit 7, and a file that is no database at all with exit 8).
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
"$IDEMLAB" init --db "$db" >/dev/null
for i in $(seq 1 50); do
  "$IDEMLAB" state-machine --db "$db" --biz-seq "s$i" --from alice --to bob --amount 1 >/dev/null
done
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
mkdir "$work/copies"
index_root=$(sqlite3 "$db" "SELECT rootpage FROM sqlite_schema WHERE name = 'journal_key'")
python3 - "$db" "$work/copies" "$index_root" <<'PY'
import random, sys
data = open(sys.argv[1], "rb").read()
size, page = len(data), 4096
kinds = ["trunc", "header", "page2", "last", "block"]
for seed in range(60):
    rng = random.Random(seed)
    kind = kinds[seed % 5]
    b = bytearray(data)
    if kind == "trunc":
        b = b[: rng.randrange(1, size - 1)]
    elif kind in ("header", "page2", "last"):
        start, span = {"header": (0, 100), "page2": (page, page), "last": (size - page, page)}[kind]
        for _ in range(8):
            b[start + rng.randrange(span)] ^= 1 << rng.randrange(8)
    else:
        at = rng.randrange(size - 200)
        b[at : at + 200] = bytes(rng.randrange(256) for _ in range(200))
    open(f"{sys.argv[2]}/{seed:02d}-{kind}.db", "wb").write(b)
# Two header fields SQLite itself trips on: the write version (the file opens read-only) and
# the schema format ("unsupported file format").
for offset in (18, 47):
    b = bytearray(data); b[offset] ^= 0xFF
    open(f"{sys.argv[2]}/header-byte-{offset}.db", "wb").write(b)
# An index that disagrees with its table, for certain: a bit of the last key on the journal
# index's root page (its rowid), which quick_check does not compare with the table.
b = bytearray(data); b[int(sys.argv[3]) * page - 1] ^= 0x01
open(f"{sys.argv[2]}/index-journal-key.db", "wb").write(b)
PY
index_only=0
for file in "$work"/copies/*.db; do
  name=$(basename "$file")
  verdict=$(sqlite3 "$file" "PRAGMA integrity_check" 2>&1 | head -1)
  quick=$(sqlite3 "$file" "PRAGMA quick_check" 2>&1 | head -1)
  [ "$verdict" != ok ] && [ "$quick" = ok ] && index_only=$((index_only + 1))
  snapshot=$(sha256sum <"$file")
  "$IDEMLAB" state-machine --db "$file" --biz-seq new --from alice --to bob --amount 1 \
    >"$work/out" 2>"$work/err"
  wrote=$?
  err=$(cat "$work/err")
  checks=$((checks + 1))
  case $wrote in
    0) [ "$verdict" = ok ] || fail "$name: written although integrity_check says: $verdict" ;;
    8) expect_one_error_line
       expect_equal "$(sha256sum <"$file")" "$snapshot" "$name: bytes after a refused write" ;;
    *) fail "$name: write exited $wrote: $err" ;;
  esac
  "$IDEMLAB" state-machine --db "$file" --biz-seq new2 --from alice --to bob --amount 1 \
    --json >"$work/out" 2>"$work/err"
  if [ $? = 8 ]; then
    python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['error']; assert e['code'] == 'ledger', e" \
      "$work/out" 2>/dev/null || fail "$name: --json refusal is not a JSON ledger error: $(cat "$work/out")"
  fi
  for command in audit accounts; do
    "$IDEMLAB" "$command" --db "$file" >/dev/null 2>"$work/err"
    got=$?
    checks=$((checks + 1))
    case "$command:$got" in
      audit:0 | audit:7 | audit:8 | accounts:0 | accounts:8) ;;
      *) fail "$name: $command exited $got: $(cat "$work/err")" ;;
    esac
    [ "$command:$got" = audit:0 ] && [ "$verdict" != ok ] && fail "$name: audit passed a damaged file"
  done
done
# The copies must hold damage that only a full check finds (an index that disagrees with its
# table), or this test proves nothing about it.
[ "$index_only" -ge 1 ] || fail "no copy had damage that quick_check misses"
expect_exit 8 "$IDEMLAB" accounts --db "$work/copies/header-byte-47.db"
expect_contains "$err" "is damaged"
expect_exit 8 "$IDEMLAB" accounts --db "$work/copies/header-byte-47.db" --json
expect_contains "$out" '"code":"ledger"'
expect_exit 7 "$IDEMLAB" audit --db "$work/copies/header-byte-18.db"
expect_contains "$out" "format versions"
finish
