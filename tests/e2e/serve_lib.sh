# Helpers for the tests of `idemlab serve`: start one on a free port, send it requests with
# curl, stop it. Sourced after lib.sh.

# start_serve ARGS...: `idemlab serve --listen 127.0.0.1:0 ARGS` in the background; returns once
# its first line says where it listens. Sets serve_pid, port, base (http://127.0.0.1:PORT) and
# serve_log (its standard error).
serve_count=0
start_serve() {
  serve_count=$((serve_count + 1))
  serve_out=$work/serve$serve_count.out
  serve_log=$work/serve$serve_count.err
  "$IDEMLAB" serve --listen 127.0.0.1:0 "$@" >"$serve_out" 2>"$serve_log" &
  serve_pid=$!
  local _
  for _ in $(seq 1 6000); do
    grep -q '^listening on' "$serve_out" 2>/dev/null && break
    [ -d "/proc/$serve_pid" ] || break
    sleep 0.01
  done
  port=$(sed -n 's|^listening on http://127.0.0.1:\([0-9]*\) .*|\1|p' "$serve_out")
  [ -n "$port" ] || { fail "serve $* did not start: $(cat "$serve_out" "$serve_log")"; finish; }
  base=http://127.0.0.1:$port
}
# stop_serve: SIGTERM, and it exits 0.
stop_serve() {
  kill -TERM "$serve_pid"
  wait_bounded "$serve_pid" "serve, told to stop"
  expect_equal "$wait_status" 0 "serve exits 0 on SIGTERM"
}
# post KEY BODY [CURL ARGS...]: POST /transfers with a form body (KEY '-': no key). Sets
# status, headers and body.
post() {
  local key=$1 data=$2; shift 2
  local args=(-s -X POST -D "$work/headers" -o "$work/body" -w '%{http_code}' --data "$data")
  [ "$key" = - ] || args+=(-H "Idempotency-Key: $key")
  status=$(curl "${args[@]}" "$@" "$base/transfers")
  headers=$(tr -d '\r' <"$work/headers")
  body=$(cat "$work/body")
}
header_value() {  # NAME -> its value in $headers
  printf '%s\n' "$headers" | sed -n "s/^$1: //Ip" | head -1
}

# run_wrk PREFIX KEYS COPIES [TOKENS]: wrk with 2 threads and 32 connections against $base,
# KEYS keys per thread, each sent COPIES times (scripts/wrk/transfers.lua); returns once both
# threads have their answers.
run_wrk() {
  local prefix=$1 keys=$2 copies=$3 tokens=${4:-} pid _
  rm -rf "$work/wrk-done"; mkdir "$work/wrk-done"
  WRK_DONE=$work/wrk-done WRK_PREFIX=$prefix WRK_KEYS=$keys WRK_COPIES=$copies WRK_TOKENS=$tokens \
    wrk -t2 -c32 -d600s -s "$ROOT/scripts/wrk/transfers.lua" "$base/" >"$work/wrk.out" 2>&1 &
  pid=$!
  for _ in $(seq 1 60000); do
    [ "$(ls "$work/wrk-done" | wc -l)" -ge 2 ] && break
    [ -d "/proc/$pid" ] || break
    sleep 0.01
  done
  kill -INT "$pid" 2>/dev/null; wait "$pid"
  [ "$(ls "$work/wrk-done" | wc -l)" -ge 2 ] || fail "wrk $prefix did not finish: $(cat "$work/wrk.out")"
}
# issue_tokens COUNT FILE: COUNT tokens from POST /tokens?count=, one per line.
issue_tokens() {
  curl -s -X POST "$base/tokens?count=$1" |
    python3 -c 'import json,sys; print("\n".join(t["token"] for t in json.load(sys.stdin)["tokens"]))' >"$2"
}
# keys_moved DB PREFIX -> "KEYS_MOVED DEBITS": how many of PREFIX's keys moved money, and how
# many times money moved for them.
keys_moved() {
  local where="FROM journal WHERE side = 'debit' AND biz_seq LIKE '$2-%'"
  echo "$(sql_on "$1" "SELECT count(DISTINCT biz_seq) $where") $(sql_on "$1" "SELECT count(*) $where")"
}
# retry_until_created KEY [BODY SUFFIX]: POST /transfers of 0.01 from alice to bob with
# Idempotency-Key KEY, again until it is answered 201 (at most 20 times).
retry_until_created() {
  local key=$1 suffix=${2:-} code _
  for _ in $(seq 1 20); do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H "Idempotency-Key: \"$key\"" \
      -d "from=alice&to=bob&amount=0.01$suffix" "$base/transfers")
    [ "$code" = 201 ] && return 0
  done
  fail "$key: $code after 20 tries"
}
# retry_unmoved DB PREFIX KEYS [TOKENS]: each key of a wrk run (run_wrk) that moved no money is
# sent again, as a client retries an answer that was not definitive (503 busy or a deadlock,
# 409 in progress), until it is 201. wrk itself never retries.
retry_unmoved() {
  local db=$1 prefix=$2 keys=$3 tokens=${4:-} thread n key token=
  sql_on "$db" "SELECT DISTINCT biz_seq FROM journal WHERE biz_seq LIKE '$prefix-%'" | sort >"$work/moved-keys"
  for thread in 0 1; do
    for n in $(seq 0 $((keys - 1))); do
      key=$prefix-$thread-$n
      grep -qx "$key" "$work/moved-keys" && continue
      [ -n "$tokens" ] && token="&token=$(sed -n "$((thread * keys + n + 1))p" "$tokens")"
      retry_until_created "$key" "$token"
    done
  done
}
# serve_duplicates DB STRATEGY KEYS [SERVE ARGS...]: each key sent twice at 32 connections
# under serve --strategy STRATEGY, then (but for naive) each key that did not move retried
# until it does; sets moved ("KEYS_MOVED DEBITS").
serve_duplicates() {
  local db=$1 strategy=$2 keys=$3 tokens=; shift 3
  start_serve --db "$db" --strategy "$strategy" "$@"
  local prefix=${strategy}-$serve_count
  if [ "$strategy" = token ]; then tokens=$work/tokens; issue_tokens $((2 * keys)) "$tokens"; fi
  run_wrk "$prefix" "$keys" 2 "$tokens"
  [ "$strategy" = naive ] || retry_unmoved "$db" "$prefix" "$keys" "$tokens"
  stop_serve
  moved=$(keys_moved "$db" "$prefix")
}
