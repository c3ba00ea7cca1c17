# e2e: idemlab serve against bad clients: 3,000 malformed requests (broken HTTP, bodies that
# are not JSON or a form, unknown and missing fields, bad amounts, unknown accounts, keys too
# long or not a string, unknown paths and methods, random bytes, valid requests with bytes
# flipped), and 50 clients that stall mid-request. Every answer is a documented status, the
# stalled clients are closed at the timeout while others are served, the server never dies,
# and the ledger is unchanged to the byte.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../serve_lib.sh"
db=$work/fuzz.db
expect_exit 0 "$IDEMLAB" init --db "$db"
before=$(digest "$db")
start_serve --db "$db" --strategy dedup-table --timeout-ms 1000 --max-body-bytes 65536 --max-header-bytes 16384
/usr/bin/python3 "$(dirname "$0")/bad_clients.py" "$port" 3000 1 >"$work/fuzz.out" 2>&1 ||
  fail "bad clients: $(tail -5 "$work/fuzz.out")"
expect_contains "$(cat "$work/fuzz.out")" "stalled: 50 clients"
[ -d "/proc/$serve_pid" ] || fail "serve died: $(cat "$serve_log")"
status=$(curl -s -o /dev/null -w '%{http_code}' "$base/accounts/alice")
expect_equal "$status" 200 "serve still answers"
expect_equal "$(grep -c 'internal error' "$serve_log")" 0 "no request failed inside the server"
stop_serve
expect_equal "$(digest "$db")" "$before" "the ledger is unchanged"
finish
