# e2e: a real browser double-clicks the payment page's Pay button (headless Chromium driven by
# Selenium and Debian's chromium-driver). The plain form moves money twice, the form carrying a
# one-time token once, and each page says so from the journal. The server holds each payment
# at a gate until both clicks have arrived, so the second click lands while the first is
# unanswered for certain (in class, --fault slow:ms=1000 does it).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../serve_lib.sh"
here=$(dirname "$0")
[ -x /usr/bin/chromedriver ] || { fail "chromium-driver is not installed (scripts/install-deps installs it)"; finish; }
db=$work/pay.db
expect_exit 0 "$IDEMLAB" init --db "$db"
debits() { sqlite3 "$db" "SELECT count(*) FROM journal WHERE source = 'pay' AND side = 'debit'"; }

# double_click PATH: a fresh gate and server, the double click, and the page's result line.
double_click() {
  local gate; gate=$(mktemp -d "$work/gate.XXXXXX")
  start_serve --db "$db" --strategy naive --fault "slow:gate=$gate,ms=120000"
  result=$(/usr/bin/python3 "$here/double_click.py" "$base$1" "$serve_log" "$gate" "$db" 2>"$work/selenium.err") ||
    fail "the browser on $1: $(tail -5 "$work/selenium.err")"
  stop_serve
}

double_click /pay
expect_equal "$(grep -c 'fault slow' "$serve_log")" 2 "plain form: two POSTs reached the server"
expect_equal "$(debits)" 2 "plain form: money moved twice"
expect_contains "$result" "sent 2 times: money moved twice"

double_click "/pay?guard=token"
expect_equal "$(grep -c 'fault slow' "$serve_log")" 2 "guarded form: two POSTs reached the server"
expect_equal "$(debits)" 3 "guarded form: money moved once"
expect_contains "$result" "sent 2 times: money moved once"
# Each POST of the plain form is a new payment with an id of its own: the audit cannot object.
expect_exit 0 "$IDEMLAB" audit --db "$db"
finish
