# e2e: bad input gets one error: line, a documented exit code, and an unchanged ledger.
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
"$IDEMLAB" init --db "$db" >/dev/null
"$IDEMLAB" select-insert --db "$db" --biz-seq keep --from alice --to bob --amount 1 >/dev/null
before=$(digest "$db")
unchanged() { expect_equal "$(digest "$db")" "$before" "ledger unchanged after: $*"; }
base=(select-insert --db "$db" --from alice --to bob)

for amount in -1 0 0.00 abc 1.234 1e3 99999999999999999999 "" " 5"; do
  expect_exit 2 "$IDEMLAB" "${base[@]}" --biz-seq b1 --amount "$amount"
  expect_one_error_line
  unchanged "amount '$amount'"
done
for biz in "" "$(printf 'x%.0s' {1..65})" "with space" "$(printf 'bell\a')"; do
  expect_exit 2 "$IDEMLAB" "${base[@]}" --biz-seq "$biz" --amount 1
  expect_one_error_line
  unchanged "biz_seq '$biz'"
done
expect_exit 3 "$IDEMLAB" select-insert --db "$db" --biz-seq b2 --from alice --to nobody --amount 1
expect_one_error_line
expect_contains "$err" unknown_account
unchanged "unknown account"
expect_exit 3 "$IDEMLAB" select-insert --db "$db" --biz-seq b3 --from alice --to alice --amount 1
expect_one_error_line
expect_contains "$err" same_account
unchanged "same account"
expect_exit 2 "$IDEMLAB" select-insert --db "$db" --biz-seq b4 --from "bad name" --to bob --amount 1
unchanged "bad account name"
expect_exit 2 "$IDEMLAB" select-insert --db "$db" --biz-seq b5 --from alice --to bob
expect_one_error_line
expect_exit 2 "$IDEMLAB" "${base[@]}" --biz-seq b6 --amount 1 --fault meteor
expect_one_error_line
expect_exit 2 "$IDEMLAB" "${base[@]}" --biz-seq b6 --amount 1 --fault crash:after=nowhere
expect_one_error_line
expect_exit 2 "$IDEMLAB" "${base[@]}" --biz-seq b6 --amount 1 --fault redeliver
expect_one_error_line
unchanged "bad faults"

expect_exit 8 "$IDEMLAB" select-insert --db "$work/missing.db" --biz-seq b7 --from alice --to bob --amount 1
expect_one_error_line
[ -e "$work/missing.db" ] && fail "a missing ledger was created"

echo "just some text, not a database at all, long enough to be a header" >"$work/text.db"
expect_exit 8 "$IDEMLAB" select-insert --db "$work/text.db" --biz-seq b8 --from alice --to bob --amount 1
expect_one_error_line
expect_contains "$err" "not an idemlab ledger"

sqlite3 "$work/other.db" "CREATE TABLE t (x); INSERT INTO t VALUES (1)"
expect_exit 8 "$IDEMLAB" accounts --db "$work/other.db"
expect_one_error_line

cp "$db" "$work/newer.db"
sqlite3 "$work/newer.db" "PRAGMA user_version = 99"
expect_exit 8 "$IDEMLAB" select-insert --db "$work/newer.db" --biz-seq b9 --from alice --to bob --amount 1
expect_one_error_line
expect_contains "$err" "newer"

cp "$db" "$work/ro.db"
chmod 0444 "$work/ro.db"
ro_before=$(digest "$work/ro.db")
expect_exit 8 "$IDEMLAB" select-insert --db "$work/ro.db" --biz-seq b10 --from alice --to bob --amount 1
expect_one_error_line
expect_contains "$err" "read-only"
expect_exit 0 "$IDEMLAB" accounts --db "$work/ro.db"
expect_equal "$(digest "$work/ro.db")" "$ro_before" "read-only ledger unchanged"

# A ledger locked by another writer past the busy timeout: exit 75, nothing changed.
hold_write_lock "$db"
expect_exit 75 "$IDEMLAB" "${base[@]}" --biz-seq b11 --amount 1 --busy-timeout-ms 200
expect_one_error_line
expect_contains "$err" busy
release_write_lock
unchanged "locked database"
integrity_ok "$db"
# --db URLs: a scheme idemlab does not know, or a URL it cannot read, is a usage error (exit 2),
# never a file name; a server that cannot be reached is a ledger error (exit 8); no password is
# ever shown.
check_url() {  # EXIT CODE URL
  cd "$work"
  expect_exit "$1" "$IDEMLAB" init --db "$3"
  expect_one_error_line
  case "$err" in *hunter2*) fail "password shown: $err" ;; esac
  IDEMLAB_DB=$3 expect_exit "$1" "$IDEMLAB" accounts --json
  expect_contains "$out" "\"code\":\"$2\""
  case "$out" in *hunter2*) fail "password shown: $out" ;; esac
  cd - >/dev/null
}
for url in 'postgress://ann:hunter2@h/db' 'postgresql://ann:hunter2@h:99999/db' \
           'mariadb://ann:hunter2@h'; do
  check_url 2 usage "$url"
done
for url in 'postgresql://ann:hunter2@h/ledger?host=/nowhere' \
           'mysql://ann:hunter2@localhost/ledger?socket=/nowhere.sock'; do
  check_url 8 ledger "$url"
  expect_contains "$err" "cannot connect to"
done
[ -z "$(find "$work" -name '*hunter2*' -o -name 'postgres*' -o -name 'mariadb*' -o -name 'mysql*')" ] ||
  fail "a --db URL was taken for a file name"
# An unknown option is named, before a required one is missed; -o is --out; compare takes --db
# as simulate and explore do, with the same answer for a SQLite file.
expect_exit 2 "$IDEMLAB" report --bogus
expect_one_error_line
expect_contains "$err" "unknown option --bogus for idemlab report"
expect_exit 2 "$IDEMLAB" token issue --db "$work/none.db" --nope=1
expect_contains "$err" "unknown option --nope for idemlab token issue"
expect_exit 0 "$IDEMLAB" report -o "$work/r.html" --requests 10 --scenarios double-click
[ -s "$work/r.html" ] || fail "report -o wrote nothing"
expect_exit 2 "$IDEMLAB" compare --db "$work/c.db" --requests 10
expect_contains "$err" "compare runs on SQLite in a scratch ledger of its own; --db takes a postgresql://"
finish
