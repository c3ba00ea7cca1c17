# e2e: idemlab init
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
expect_exit 0 "$IDEMLAB" init --db "$db"
expect_contains "$out" "created"
integrity_ok "$db"
expect_equal "$(sqlite3 "$db" 'SELECT group_concat(name) FROM account')" "alice,bob,carol" "default accounts"
expect_equal "$(sqlite3 "$db" 'PRAGMA journal_mode')" wal "journal mode"

before=$(digest "$db")
expect_exit 8 "$IDEMLAB" init --db "$db" --account zed=1
expect_one_error_line
expect_contains "$err" "--force"
expect_equal "$(digest "$db")" "$before" "existing ledger unchanged"

expect_exit 0 "$IDEMLAB" init --db "$db" --force --account x=1.50 --account y=0 --json
expect_equal "$(json_field "$out" accounts)" '[{"name": "x", "balance_minor": 150}, {"name": "y", "balance_minor": 0}]' "json"
integrity_ok "$db"

# --force replaces an idemlab ledger only: a document, another program's database and a folder
# are refused and left byte for byte as they were.
printf '# notes\n' >"$work/notes.md"
sqlite3 "$work/foreign.db" "CREATE TABLE t (x); INSERT INTO t VALUES (1)"
mkdir "$work/folder"
for target in "$work/notes.md" "$work/foreign.db" "$work/folder"; do
  kept=$( [ -d "$target" ] && ls -la "$target" | sha256sum || sha256sum <"$target")
  expect_exit 8 "$IDEMLAB" init --db "$target" --force
  expect_one_error_line
  expect_contains "$err" "replaces an idemlab ledger only"
  expect_equal "$( [ -d "$target" ] && ls -la "$target" | sha256sum || sha256sum <"$target")" \
    "$kept" "init --force left $target unchanged"
done

IDEMLAB_DB=$work/env.db expect_exit 0 "$IDEMLAB" init
[ -f "$work/env.db" ] || fail "IDEMLAB_DB was not used"
(cd "$work" && expect_exit 0 "$IDEMLAB" init && [ -f idemlab.db ]) || fail "default path idemlab.db"

for bad in "x" "x=" "x=-1" "x=1.001" "bad name=1" "x=1e5"; do
  expect_exit 2 "$IDEMLAB" init --db "$work/bad.db" --account "$bad"
  expect_one_error_line
  [ -f "$work/bad.db" ] && fail "bad account $bad left a file"
done
expect_exit 2 "$IDEMLAB" init --db "$work/dup.db" --account a=1 --account a=2
[ -f "$work/dup.db" ] && fail "duplicate account left a file"
expect_exit 8 "$IDEMLAB" init --db "$work/no/such/dir/l.db"
expect_one_error_line
finish
