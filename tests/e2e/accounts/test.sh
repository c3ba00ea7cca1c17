# e2e: idemlab accounts
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
"$IDEMLAB" init --db "$db" --account alice=12.34 --account bob=0 >/dev/null
expect_exit 0 "$IDEMLAB" accounts --db "$db"
printf "%s\n" "$out" | grep -qE "^alice +12.34 +12.34$" || fail "accounts table: $out"
expect_exit 0 "$IDEMLAB" accounts --db "$db" --json
expect_equal "$out" '{"accounts":[{"name":"alice","balance_minor":1234,"opening_balance_minor":1234},{"name":"bob","balance_minor":0,"opening_balance_minor":0}]}' "json"
"$IDEMLAB" naive --db "$db" --biz-seq p1 --from alice --to bob --amount 2 >/dev/null
expect_exit 0 "$IDEMLAB" accounts --db "$db" --json
expect_contains "$out" '"name":"bob","balance_minor":200'
integrity_ok "$db"

# Read-only commands leave the ledger's folder as they found it: no -wal or -shm left behind.
folder() { (cd "$work" && ls -A | sort | tr '\n' ' '); }
found=$(folder)
for command in "accounts" "audit" "history" "query --biz-seq p1"; do
  # shellcheck disable=SC2086
  "$IDEMLAB" $command --db "$db" >/dev/null 2>&1
  expect_equal "$(folder)" "$found" "idemlab $command left the folder as it was"
done
mkdir "$work/folder"
expect_exit 8 "$IDEMLAB" accounts --db "$work/folder"
expect_one_error_line
expect_contains "$err" "is a folder, not a ledger file"
finish
