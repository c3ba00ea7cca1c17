# e2e: idemlab explain prints steps, SQL, protection and pitfall for every strategy.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 "$IDEMLAB" explain
for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                optimistic-lock lock-table naive; do
  expect_contains "$out" "$strategy"
done
for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                optimistic-lock lock-table naive; do
  expect_exit 0 "$IDEMLAB" explain "$strategy"
  for heading in "How it works" "Protects against" "Pitfalls" "Steps" "Trace" "first attempt -> applied"; do
    expect_contains "$out" "$heading"
  done
  expect_exit 0 "$IDEMLAB" explain "$strategy" --json
  expect_equal "$(json_field "$out" strategy)" "$strategy" "json name"
done
expect_exit 0 "$IDEMLAB" explain select-for-update
expect_contains "$out" "BEGIN IMMEDIATE"
expect_contains "$out" "SQLITE_BUSY_SNAPSHOT"
expect_contains "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "whole database"
expect_exit 0 "$IDEMLAB" select-for-update --help
expect_contains "$out" "BEGIN IMMEDIATE"
expect_exit 0 "$IDEMLAB" explain state-machine
expect_contains "$out" "AND status = 1"
expect_contains "$out" "repeat -> applied (replayed)"
# Every explain fits 80 columns when asked: prose and SQL wrap, nothing is cut.
for strategy in "" select-insert direct-insert state-machine dedup-table token select-for-update \
                optimistic-lock lock-table naive; do
  expect_exit 0 "$IDEMLAB" explain $strategy --width 80
  [ "$(printf '%s\n' "$out" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le 80 ] ||
    fail "explain $strategy is wider than 80"
done
expect_exit 0 "$IDEMLAB" explain select-for-update --width 80
expect_contains "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "WHERE source = :source AND biz_seq = :biz_seq"
expect_exit 2 "$IDEMLAB" explain nonsense
expect_one_error_line
# --db URL: each step's SQL as that engine runs it, without connecting (no server here).
expect_exit 0 "$IDEMLAB" explain select-for-update --db 'postgresql://u:secret@nowhere/ledger' --json
printf '%s' "$out" | grep -q '"sql":"[^"]*LIMIT 1 FOR UPDATE"' || fail "PostgreSQL's select_flow locks the row"
expect_exit 0 "$IDEMLAB" explain select-for-update --json
printf '%s' "$out" | grep -q '"sql":"[^"]*FOR UPDATE' && fail "SQLite runs no FOR UPDATE"
expect_exit 0 "$IDEMLAB" explain direct-insert --pitfall --db 'mariadb://u@nowhere/ledger'
expect_contains "$out" "ON DUPLICATE KEY UPDATE"
expect_contains "$out" "as mariadb runs it"
expect_exit 2 "$IDEMLAB" explain token --db 'oracle://x/y'
expect_one_error_line
finish
