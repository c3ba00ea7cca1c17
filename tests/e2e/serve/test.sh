# e2e: idemlab serve on a free port, with curl: 201 then a replay marked Idempotent-Replayed,
# 422 and 400 as problem+json with documented types, 409 with Retry-After while a lock-table
# twin holds the request, the server's faults (a lost request, a lost answer, a crash and a
# restart), the payment page's Post/Redirect/Get, and SIGTERM letting an attempt in flight
# finish before exiting 0. Bad input writes nothing; the audit is clean.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../serve_lib.sh"
command -v curl >/dev/null || { fail "curl is not installed (scripts/install-deps installs it)"; finish; }
db=$work/s.db
expect_exit 0 "$IDEMLAB" init --db "$db"
journal() { sqlite3 "$db" 'SELECT count(*) FROM journal'; }
problem_type() { json_field "$body" type; }

start_serve --db "$db" --strategy dedup-table
expect_contains "$(cat "$serve_out")" "strategy dedup-table"

# The first POST, then its repeat: the same answer, marked as a replay.
post '"k1"' 'from=alice&to=bob&amount=5.00'
expect_equal "$status" 201 "first POST"
expect_equal "$(header_value Location)" /transfers/k1 "Location"
first=$body
expect_equal "$(json_field "$body" outcome)" applied "first POST's outcome"
post '"k1"' 'from=alice&to=bob&amount=5.00'
expect_equal "$status" 201 "repeat's status"
expect_equal "$(header_value Idempotent-Replayed)" true "repeat marked as replayed"
expect_equal "$body" "$first" "repeat's body is the first's"
# JSON and a bare-token key name the same request.
status=$(curl -s -o "$work/body" -w '%{http_code}' -H 'Idempotency-Key: k1' \
  -H 'Content-Type: application/json' -d '{"from":"alice","to":"bob","amount":"5.00"}' "$base/transfers")
expect_equal "$status" 201 "JSON repeat with a bare token"
expect_equal "$(pairs "$db" k1)" 1 "k1 moved once"

# Errors are problem+json, each of a documented type, and write nothing.
before=$(journal)
post '"k1"' 'from=alice&to=bob&amount=6.00'
expect_equal "$status" 422 "same key, another payload"
expect_equal "$(problem_type)" /problems/idempotency-key-reused "its type"
expect_equal "$(header_value Content-Type)" application/problem+json "its media type"
for bad in 'from=alice&to=bob&amount=-1' 'from=alice&to=bob&amount=0' 'from=alice&to=bob&amount=1.001' \
           'from=alice&to=bob&amount=99999999999999999999' 'from=alice&to=bob' 'from=alice&to=bob&amount=1&x=2'; do
  post - "$bad"
  expect_equal "$status" 400 "$bad"
  expect_equal "$(problem_type)" /problems/invalid-field "$bad: its type"
done
post - 'from=alice&to=zed&amount=1'
expect_equal "$status" 422 "unknown account"
expect_equal "$(problem_type)" /problems/unknown-account "unknown account: its type"
post '"'"$(printf 'k%.0s' $(seq 1 65))"'"' 'from=alice&to=bob&amount=1'
expect_equal "$status" 400 "a key of 65 characters"
expect_equal "$(problem_type)" /problems/invalid-idempotency-key "long key: its type"
post '12' 'from=alice&to=bob&amount=1'
expect_equal "$status" 400 "a key that is not a string"
status=$(curl -s -o "$work/body" -w '%{http_code}' -H 'Content-Type: text/plain' -d 'pay me' "$base/transfers")
expect_equal "$status" 415 "a body neither JSON nor a form"
status=$(curl -s -o "$work/body" -w '%{http_code}' -X DELETE "$base/transfers")
expect_equal "$status" 405 "DELETE /transfers"
status=$(curl -s -o "$work/body" -w '%{http_code}' "$base/nowhere")
expect_equal "$status" 404 "an unknown path"
expect_equal "$(journal)" "$before" "bad input wrote nothing"
# Each type names a page that says what it means.
status=$(curl -s -o "$work/body" -w '%{http_code}' "$base/problems/idempotency-key-reused")
expect_equal "$status" 200 "the type's page"
expect_contains "$(cat "$work/body")" "422"

# Without a key each POST is a new transfer: how a double click moves money twice.
post - 'from=carol&to=bob&amount=1.00'
post - 'from=carol&to=bob&amount=1.00'
expect_equal "$(sqlite3 "$db" "SELECT balance_minor FROM account WHERE name = 'carol'")" 99800 "two POSTs without a key: two transfers"

# GET resources are idemlab http's.
status=$(curl -s -o "$work/body" -w '%{http_code}' "$base/transfers/k1")
expect_equal "$status" 200 "GET /transfers/k1"
expect_equal "$(json_field "$(cat "$work/body")" state)" succeeded "k1's state"

# The front page links the pages; /accounts lists the balances; HEAD answers as GET, without a
# body (RFC 9110), wherever GET answers.
status=$(curl -s -o "$work/front" -D "$work/headers" -w '%{http_code}' "$base/")
expect_equal "$status" 200 "GET /"
expect_contains "$(tr -d '\r' <"$work/headers")" "Content-Type: text/html"
for link in 'href="/pay"' 'href="/pay?guard=token"' 'href="/problems"' 'href="/accounts"' \
  'href="/accounts/alice"'; do
  expect_contains "$(cat "$work/front")" "$link"
done
status=$(curl -s -o "$work/body" -w '%{http_code}' "$base/accounts")
expect_equal "$status" 200 "GET /accounts"
for name in alice bob carol; do expect_contains "$(cat "$work/body")" "\"$name\""; done
raw_head() {  # PATH: the bytes the server sends after the headers, on a connection it closes
  /usr/bin/python3 - "$base" "$1" <<'PY'
import socket, sys, urllib.parse
url = urllib.parse.urlparse(sys.argv[1])
with socket.create_connection((url.hostname, url.port), timeout=30) as s:
    s.sendall(f"HEAD {sys.argv[2]} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    data = b""
    while chunk := s.recv(65536):
        data += chunk
print(len(data.split(b"\r\n\r\n", 1)[1]))
PY
}
for path in / /accounts /accounts/alice /transfers/k1 /pay /problems; do
  get_length=$(curl -s "$base$path" | wc -c)
  head=$(curl -s -I "$base$path" | tr -d '\r')
  expect_contains "$head" "HTTP/1.1 200"
  expect_contains "$head" "Content-Length: $get_length"
  expect_equal "$(raw_head "$path")" 0 "bytes after HEAD $path's headers"
done
status=$(curl -s -o /dev/null -I -w '%{http_code}' "$base/accounts/zed")
expect_equal "$status" 404 "HEAD of what GET does not find"

# The payment page: a form, and Post/Redirect/Get.
status=$(curl -s -o "$work/page" -w '%{http_code}' "$base/pay")
expect_equal "$status" 200 "GET /pay"
form=$(sed -n 's/.*name="form" value="\([^"]*\)".*/\1/p' "$work/page")
status=$(curl -s -o /dev/null -D "$work/headers" -w '%{http_code}' -d "form=$form&from=alice&to=carol&amount=2.00" "$base/pay")
expect_equal "$status" 303 "POST /pay redirects"
location=$(tr -d '\r' <"$work/headers" | sed -n 's/^Location: //p')
expect_contains "$(curl -s "$base$location")" "money moved once"
stop_serve
expect_exit 0 "$IDEMLAB" audit --db "$db"

# --require-key: a POST without a key is refused.
start_serve --db "$db" --strategy state-machine --require-key
post - 'from=alice&to=bob&amount=1'
expect_equal "$status" 400 "no key where one is required"
expect_equal "$(problem_type)" /problems/missing-idempotency-key "its type"
stop_serve

# A lock-table twin while the first request holds the lock: 409 with Retry-After. The first
# waits at a gate the test opens, so the overlap is certain.
gate=$work/gate; mkdir "$gate"
start_serve --db "$db" --strategy lock-table --fault "slow:gate=$gate,ms=120000,nth=1" \
  --lock-ttl-ms 600000
post '"twin"' 'from=alice&to=bob&amount=3.00' & first_post=$!
for _ in $(seq 1 6000); do compgen -G "$gate/arrived.*" >/dev/null && break; sleep 0.01; done
post '"twin"' 'from=alice&to=bob&amount=3.00'
expect_equal "$status" 409 "the twin while the first holds the lock"
expect_equal "$(problem_type)" /problems/request-in-progress "409's type"
# Retry-After: when the holder should finish (dealt 120 s of slow fault), not its 600 s lease.
retry_after=$(header_value Retry-After)
[ -n "$retry_after" ] || fail "409 without Retry-After"
[ "$retry_after" -ge 100 ] && [ "$retry_after" -le 121 ] ||
  fail "Retry-After $retry_after: wanted the holder's expected finish, about 120 s"
# SIGTERM with the first request still in flight: it finishes, then the server exits 0.
kill -TERM "$serve_pid"
touch "$gate/open"
wait "$first_post"
wait "$serve_pid"; expect_equal "$?" 0 "serve exits 0 after draining"
expect_equal "$(pairs "$db" twin)" 1 "the drained request committed once"
expect_contains "$(cat "$serve_log")" "fault slow:gate=$gate,ms=120000,nth=1 on request 1 (key twin)"

# A lost request and a lost answer are closed connections; the retry moves money once.
start_serve --db "$db" --strategy direct-insert --fault request-lost:nth=1 --fault response-lost:nth=2
curl -s -o /dev/null -H 'Idempotency-Key: lost' -d 'from=bob&to=alice&amount=4.00' "$base/transfers"
expect_equal "$?" 52 "a lost request: an empty reply"
expect_equal "$(pairs "$db" lost)" 0 "the lost request moved nothing"
curl -s -o /dev/null -H 'Idempotency-Key: lost' -d 'from=bob&to=alice&amount=4.00' "$base/transfers"
expect_equal "$?" 52 "a lost answer: an empty reply"
expect_equal "$(pairs "$db" lost)" 1 "the lost answer's transfer committed"
post lost 'from=bob&to=alice&amount=4.00'
expect_equal "$status" 201 "the retry after a lost answer"
expect_equal "$(header_value Idempotent-Replayed)" true "the retry is a replay"
# The history has the attempts that reached the ledger: the lost answer's, and the replay (a
# lost request never reached it, as with one attempt's --fault request-lost).
expect_equal "$(sqlite3 "$db" "SELECT group_concat(coalesce(fault, '-'), ' ') FROM attempt WHERE biz_seq = 'lost'")" 'response-lost:nth=2 -' "the faults in the history"
expect_equal "$(grep -c 'on request' "$serve_log")" 2 "one line per fault"
stop_serve

# A crash after the commit kills the server; after a restart the retry is a replay.
start_serve --db "$db" --strategy optimistic-lock --fault crash:after=commit,nth=1
post crash 'from=bob&to=carol&amount=7.00'
wait "$serve_pid"; expect_equal "$?" 137 "crash: killed by SIGKILL"
start_serve --db "$db" --strategy optimistic-lock
post crash 'from=bob&to=carol&amount=7.00'
expect_equal "$status" 201 "the retry after the restart"
expect_equal "$(pairs "$db" crash)" 1 "the crashed request moved once"
stop_serve

expect_exit 0 "$IDEMLAB" audit --db "$db"
integrity_ok "$db"
# serve --json: one JSON object a line, one per event: listening, a fault that acted, stopped.
"$IDEMLAB" serve --db "$db" --strategy dedup-table --listen 127.0.0.1:0 --json \
  --fault response-lost:nth=1 >"$work/events" 2>"$work/events.err" &
json_pid=$!
for _ in $(seq 1 6000); do grep -q '"event":"listening"' "$work/events" && break; sleep 0.01; done
json_base=$(head -1 "$work/events" | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')
curl -s -o /dev/null -H 'Idempotency-Key: "ev1"' -d 'from=alice&to=bob&amount=1' "$json_base/transfers"
kill -TERM "$json_pid"; wait "$json_pid"
expect_equal "$?" 0 "serve --json exits 0 on SIGTERM"
expect_equal "$(python3 -c 'import json,sys; print(" ".join(json.loads(l)["event"] for l in sys.stdin))' \
  <"$work/events")" "listening fault stopped" "serve --json's events"
expect_contains "$(sed -n 2p "$work/events")" '"fault":"response-lost:nth=1","key":"ev1"'
expect_equal "$(cat "$work/events.err")" "" "serve --json's standard error"
finish
