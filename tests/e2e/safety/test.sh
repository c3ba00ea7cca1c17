# e2e: nothing harms a ledger or hangs (issue 7): output paths, bounded values, damaged files,
# plain --db paths, one strategy per biz_seq, and the smaller input checks. Each block is a
# defect that once destroyed data, hung, or did the wrong thing quietly.
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
"$IDEMLAB" init --db "$db" >/dev/null
"$IDEMLAB" select-insert --db "$db" --biz-seq keep --from alice --to bob --amount 1 >/dev/null
before=$(digest "$db")
unchanged() { expect_equal "$(digest "$db")" "$before" "ledger unchanged after: $*"; }
transfer=(select-insert --db "$db" --biz-seq t2 --from alice --to bob --amount 1)

# 1. --trace-sql never writes over the ledger, its sidecars, or any SQLite file.
ln -s "$db" "$work/link.db"
ln "$db" "$work/hard.db"
sqlite3 "$work/other.db" "CREATE TABLE t (x)"
for target in "$db" "$work/link.db" "$work/hard.db" "$db-wal" "$db-shm" "$db-journal" \
              "$work/other.db"; do
  expect_exit 2 "$IDEMLAB" "${transfer[@]}" --trace-sql "$target"
  expect_one_error_line
  unchanged "--trace-sql $target"
done
expect_equal "$(sqlite3 "$work/other.db" "SELECT count(*) FROM sqlite_schema")" 1 "other db kept"
# report --out, the other output option, is held to the same guard.
for target in "$db" "$work/link.db" "$db-wal" "$work/other.db"; do
  expect_exit 2 "$IDEMLAB" report --out "$target" --requests 10
  expect_one_error_line
  unchanged "report --out $target"
done
# The trace is opened before the ledger: a bad trace path fails first and runs nothing.
expect_exit 2 "$IDEMLAB" "${transfer[@]}" --trace-sql "$work/no/such/dir/trace.sql"
unchanged "unwritable trace"
expect_exit 2 "$IDEMLAB" select-insert --db "$work/missing.db" --biz-seq t2 --from alice \
  --to bob --amount 1 --trace-sql "$work/missing.db"
expect_exit 0 "$IDEMLAB" "${transfer[@]}" --trace-sql "$work/trace.sql"
expect_contains "$(cat "$work/trace.sql")" "INSERT INTO journal"
before=$(digest "$db")

# 2. Durations are bounded; the largest allowed value works.
expect_exit 2 "$IDEMLAB" lock-table --db "$db" --biz-seq L1 --from alice --to bob --amount 1 \
  --lock-ttl-ms 9223372036854775807
expect_one_error_line
expect_exit 2 "$IDEMLAB" token issue --db "$db" --ttl-ms 9223372036854775807
expect_one_error_line
unchanged "huge durations"
expect_exit 0 "$IDEMLAB" lock-table --db "$db" --biz-seq L2 --from alice --to bob --amount 1 \
  --lock-ttl-ms 86400000
expect_exit 0 "$IDEMLAB" token issue --db "$db" --ttl-ms 86400000 --json
expires=$(json_field "$out" expires_at_ms)
[ "$expires" -gt "$(( $(date +%s) * 1000 + 86000000 ))" ] || fail "a day-long token expires too soon"
before=$(digest "$db")
for spec in "slow:ms=9223372036854775807" "busy:ms=9223372036854775807" \
            "short-ttl:ms=86400001" "double-submit:k=1000000000" "redeliver:k=101" \
            "request-lost:nth=99999999999"; do
  expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 2 --fault "$spec"
  expect_one_error_line
done
for retry in timeout-ms=9223372036854775807 base-ms=86400001 cap-ms=99999999999999999999; do
  expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 2 --retry "$retry"
  expect_one_error_line
done
# The largest values run, and the slow fault really delays (virtual time passes a day).
expect_exit 0 "$IDEMLAB" simulate --strategy naive --requests 1 --format json \
  --fault slow:ms=86400000,p=1 --retry attempts=1,timeout-ms=86400000
expect_equal "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["virtual_ms"] >= 86400000)')" True "a day-long pause happened"

# 3. Runs are bounded: scenario files pass the same checks; a run over the memory budget is
# refused before it starts, with the figure.
for body in "concurrency = 2147483648" "concurrency = 4294967297" "requests = 50000000" \
            "requests = 1000000000000" "seed = -1" "lock_ttl_ms = 0"; do
  printf '%s\n' "$body" >"$work/s.toml"
  expect_exit 2 "$IDEMLAB" simulate --strategy naive --scenario "$work/s.toml"
  expect_one_error_line
  expect_contains "$err" "s.toml:1: ${body%% *}"
done
expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 10 --concurrency 1000 \
  --fault double-submit:k=100 --retry attempts=100
expect_one_error_line
expect_contains "$err" "MiB budget"

# 4. Damaged ledgers: exit 8 naming the file in every command; audit reports a finding (7).
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
cp "$db" "$work/cut4k.db"; truncate -s 4096 "$work/cut4k.db"
cp "$db" "$work/cut1.db"; truncate -s -1 "$work/cut1.db"
for damaged in cut4k cut1; do
  file=$work/$damaged.db
  snapshot=$(sha256sum <"$file")
  expect_exit 8 "$IDEMLAB" select-insert --db "$file" --biz-seq d1 --from alice --to bob --amount 1
  expect_one_error_line
  expect_contains "$err" "$file is damaged"
  expect_exit 8 "$IDEMLAB" token issue --db "$file"
  expect_contains "$err" "$file"
  expect_exit 7 "$IDEMLAB" audit --db "$file" --json
  expect_contains "$out" '"kind":"integrity"'
  expect_equal "$(sha256sum <"$file")" "$snapshot" "$damaged left as it was"
done
expect_exit 8 "$IDEMLAB" accounts --db "$work/cut4k.db"
expect_contains "$err" "cut4k.db is damaged"
expect_exit 8 "$IDEMLAB" history --db "$work/cut4k.db" --json
expect_contains "$out" '"code":"ledger"'
# One page overwritten (the token table's): writers refuse it, audit reports it.
cp "$db" "$work/page.db"
page=$(sqlite3 "$work/page.db" "SELECT rootpage FROM sqlite_schema WHERE name = 'token'")
head -c 4096 /dev/zero | tr '\0' 'x' |
  dd of="$work/page.db" bs=4096 seek=$((page - 1)) conv=notrunc 2>/dev/null
snapshot=$(sha256sum <"$work/page.db")
expect_exit 8 "$IDEMLAB" token issue --db "$work/page.db"
expect_exit 8 "$IDEMLAB" naive --db "$work/page.db" --biz-seq p1 --from alice --to bob --amount 1
expect_exit 7 "$IDEMLAB" audit --db "$work/page.db"
expect_equal "$(sha256sum <"$work/page.db")" "$snapshot" "page-damaged ledger left as it was"

# 5. --db is a plain path, never a SQLite URI.
(cd "$work" && expect_exit 0 "$IDEMLAB" init --db 'file:u.db?cache=shared')
[ -f "$work/file:u.db?cache=shared" ] || fail "init did not create the file it was named"
[ -e "$work/u.db" ] && fail "init read --db as a URI"

# 7. One strategy per biz_seq: each ordered pair of strategies, the second refused unchanged.
strategies=(select-insert direct-insert state-machine dedup-table token select-for-update
            optimistic-lock lock-table)
attempt() {  # DB STRATEGY [flags...]; a token strategy uses $token
  local ledger=$1 name=$2; shift 2
  local extra=()
  [ "$name" = token ] && extra=(--token "$token")
  expect_exit "$want" "$IDEMLAB" "$name" --db "$ledger" --biz-seq s1 --from alice --to bob \
    --amount 1 "${extra[@]}" "$@"
}
# A refusal changes nothing (each is checked), so the seconds share their first's ledger.
pair=$work/pair.db
for first in "${strategies[@]}"; do
  rm -f "$pair"*; "$IDEMLAB" init --db "$pair" >/dev/null
  token=$("$IDEMLAB" token issue --db "$pair")
  want=0 attempt "$pair" "$first"
  token=$("$IDEMLAB" token issue --db "$pair")
  snapshot=$(digest "$pair")
  for second in "${strategies[@]}"; do
    [ "$first" = "$second" ] && continue
    want=4 attempt "$pair" "$second" --json
    expect_contains "$out" "\"served_by\":\"$first\""
    expect_contains "$err" "biz_seq s1 was served by $first"
    expect_equal "$(digest "$pair")" "$snapshot" "$first then $second: unchanged"
  done
done
# With --allow-strategy-switch the lab shows what a change of strategy does.
rm -f "$pair"*; "$IDEMLAB" init --db "$pair" >/dev/null
token=$("$IDEMLAB" token issue --db "$pair")
want=0 attempt "$pair" token
want=0 attempt "$pair" direct-insert --allow-strategy-switch
expect_equal "$(pairs "$pair" s1)" 2 "a strategy switch moves the money again"
expect_exit 7 "$IDEMLAB" audit --db "$pair"

# 8. Smaller ones.
expect_exit 2 "$IDEMLAB" init --db "$work/rich.db" --account a=9000000000000.00 \
  --account b=9000000000000.00
expect_one_error_line
[ -e "$work/rich.db" ] && fail "a ledger whose sums would overflow was created"
for seed in -1 18446744073709551616 ""; do
  expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 2 --seed "$seed"
  expect_one_error_line
done
for scenario in "" /; do
  expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 2 --scenario "$scenario"
  expect_one_error_line
done
expect_exit 2 "$IDEMLAB" accounts --db "$db" --json=yes
expect_exit 2 "$IDEMLAB" accounts --db "$db" --json=true
expect_exit 2 "$IDEMLAB" accounts --help=1
expect_exit 2 "$IDEMLAB" history --db "$db" --limit 99999999999999999999
expect_exit 2 "$IDEMLAB" history --db "$db" --biz-seq --json
expect_contains "$out" '"error"'
expect_exit 8 "$IDEMLAB" init --db "$work/no/such/folder/x.db"
expect_one_error_line
expect_contains "$err" "no folder"
case "$err" in *init-*) fail "the error names a scratch file: $err" ;; esac
expect_exit 2 "$IDEMLAB" no-such-command --json
expect_contains "$out" '"message":"unknown command'
# Busy at open (another process holds the file in exclusive locking mode) answers in JSON.
hold_write_lock "$db" 'PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;'
expect_exit 75 "$IDEMLAB" "${transfer[@]}" --busy-timeout-ms 200 --json
expect_contains "$out" '"code":"retryable"'
expect_contains "$err" "$db is locked"
release_write_lock
unchanged "every refused input"
integrity_ok "$db"
finish
