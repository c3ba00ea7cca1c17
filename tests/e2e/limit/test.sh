# e2e: an account limit set absolutely survives a retry unchanged; raised by an amount, a retry
# raises it again; transfers above it are refused before any guard, and nothing is recorded.
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
expect_exit 0 "$IDEMLAB" init --db "$db"
expect_exit 0 "$IDEMLAB" limit --db "$db" --account alice
expect_equal "$out" "limit: alice none" "no limit at first"

# --set twice, the first answer lost: one state.
expect_exit 75 "$IDEMLAB" limit --db "$db" --account alice --set 50 --fault response-lost
expect_one_error_line
expect_exit 0 "$IDEMLAB" limit --db "$db" --account alice --set 50
expect_equal "$out" "limit: alice 50.00 (was 50.00): unchanged" "set is idempotent"

# --raise twice, the first answer lost: raised twice.
expect_exit 75 "$IDEMLAB" limit --db "$db" --account alice --raise 10 --fault response-lost
expect_exit 0 "$IDEMLAB" limit --db "$db" --account alice --raise 10 --json
expect_equal "$out" '{"account":"alice","change":"raise","outcome":"applied","reason":null,"limit_minor":7000,"was_minor":6000}' "raise is not"

# A lost request changes nothing.
expect_exit 75 "$IDEMLAB" limit --db "$db" --account alice --set 1 --fault request-lost
expect_equal "$(sqlite3 "$db" "SELECT limit_minor FROM account_limit")" 7000 "request-lost changed nothing"

# The limit is obeyed: above it, rejected (over_limit) with no flow, journal or attempt row.
expect_exit 3 "$IDEMLAB" select-insert --db "$db" --biz-seq o1 --from alice --to bob --amount 70.01 --json
expect_contains "$out" '"outcome":"rejected","replayed":false,"reason":"over_limit"'
expect_equal "$(sqlite3 "$db" "SELECT count(*) FROM transfer_flow") $(sqlite3 "$db" "SELECT count(*) FROM attempt")" "0 0" "nothing recorded"
expect_exit 0 "$IDEMLAB" select-insert --db "$db" --biz-seq o1 --from alice --to bob --amount 70
# Only the payer's limit counts.
expect_exit 0 "$IDEMLAB" select-insert --db "$db" --biz-seq o2 --from bob --to alice --amount 500

# --remove twice: the second finds nothing; the state is the same.
expect_exit 0 "$IDEMLAB" limit --db "$db" --account alice --remove
expect_equal "$out" "limit: alice none (was 70.00)" "removed"
expect_exit 0 "$IDEMLAB" limit --db "$db" --account alice --remove
expect_equal "$out" "limit: alice none (was none)" "removed again"

# Bad input: one error line, a documented code, nothing changed.
before=$(digest "$db")
expect_exit 3 "$IDEMLAB" limit --db "$db" --account alice --raise 5
expect_contains "$err" "no_limit"
expect_exit 3 "$IDEMLAB" limit --db "$db" --account zed --set 5
expect_contains "$err" "unknown_account"
expect_exit 2 "$IDEMLAB" limit --db "$db" --account alice --set 5 --raise 5
expect_one_error_line
expect_exit 2 "$IDEMLAB" limit --db "$db" --account alice --set -5
expect_exit 2 "$IDEMLAB" limit --db "$db" --account alice --set 0
expect_exit 2 "$IDEMLAB" limit --db "$db" --account alice --set 5 --fault slow
expect_exit 2 "$IDEMLAB" limit --db "$db" --set 5
expect_equal "$(digest "$db")" "$before" "bad input changed nothing"
expect_exit 0 "$IDEMLAB" audit --db "$db"
integrity_ok "$db"
finish
