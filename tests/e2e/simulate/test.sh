# e2e: idemlab simulate: formats, byte-identical reruns, timelines, and bad input.
source "$(dirname "$0")/../lib.sh"
sim=("$IDEMLAB" simulate --strategy state-machine --requests 150 --fault response-lost:p=0.3 --fault slow:p=0.1,ms=500)

for seed in 1 7 12345; do
  "${sim[@]}" --seed "$seed" --json >"$work/a.json"
  "${sim[@]}" --seed "$seed" --json >"$work/b.json"
  cmp -s "$work/a.json" "$work/b.json" || fail "seed $seed: two runs differ"
  "${sim[@]}" --seed "$seed" >"$work/a.txt"
  "${sim[@]}" --seed "$seed" >"$work/b.txt"
  cmp -s "$work/a.txt" "$work/b.txt" || fail "seed $seed: two text runs differ"
  checks=$((checks + 2))
done
"${sim[@]}" --seed 2 --json >"$work/c.json"
cmp -s "$work/a.json" "$work/c.json" && fail "different seeds gave identical output"

expect_exit 0 "${sim[@]}" --json
for field in strategy pitfall requests moved_once moved_twice_or_more never_moved stuck \
             unknown_to_client inconsistent_answers seed command; do
  printf '%s' "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert '$field' in d" ||
    fail "simulate json lacks $field"
done
expect_equal "$(json_field "$out" moved_twice_or_more)" 0 "state-machine doubles"
expect_equal "$(json_field "$out" requests)" 150 "requests"

# The printed command reproduces the run byte for byte.
command=$(json_field "$out" command)
expect_contains "$command" "idemlab simulate --strategy state-machine"
eval "\"$IDEMLAB\" ${command#idemlab } --json" >"$work/again.json"
printf '%s\n' "$out" >"$work/first.json"
cmp -s "$work/first.json" "$work/again.json" || fail "the printed command does not reproduce the run"

expect_exit 0 "${sim[@]}"
for word in moved_once moved_twice_or_more never_moved stuck unknown_to_client latency_ms_p99 "reproduce: idemlab simulate"; do
  expect_contains "$out" "$word"
done
expect_exit 0 "${sim[@]}" --format csv
expect_equal "$(printf '%s\n' "$out" | head -1 | cut -d, -f1-4)" "strategy,pitfall,requests,moved_once" "csv header"
expect_exit 0 "${sim[@]}" --format md
expect_contains "$out" "| strategy | pitfall |"

expect_exit 0 "$IDEMLAB" simulate --strategy naive --requests 3 --fault response-lost:nth=2 --timeline --sql
for word in client network server "response lost" "[fault: response-lost]" "BEGIN IMMEDIATE" check_accounts timeout "r2#1"; do
  expect_contains "$out" "$word"
done
expect_exit 0 "$IDEMLAB" simulate --strategy naive --requests 500 --timeline-request 7 --json
printf '%s' "$out" | python3 -c "import json,sys; t=json.load(sys.stdin)['timeline']; assert t and all(e['request']==7 for e in t)" ||
  fail "timeline-request narrates other requests"

expect_exit 0 "$IDEMLAB" simulate --strategy dedup-table --pitfall --scenario crash-mid-transfer --json
[ "$(json_field "$out" stuck)" -gt 0 ] || fail "crash-mid-transfer: dedup-table --pitfall not stuck"
expect_equal "$(json_field "$out" scenario)" crash-mid-transfer "scenario name"

cat >"$work/mine.toml" <<'TOML'
name = "mine"
summary = "a user's own scenario"
exposes = ["naive"]
requests = 40
faults = ["redeliver:k=1,p=1"]
TOML
expect_exit 0 "$IDEMLAB" simulate --strategy naive --scenario "$work/mine.toml" --json
expect_equal "$(json_field "$out" moved_twice_or_more)" 40 "own scenario: every message redelivered"

# Quiet on standard error when it is not a terminal.
"$IDEMLAB" simulate --strategy naive --requests 3000 --format csv >/dev/null 2>"$work/progress"
expect_equal "$(wc -c <"$work/progress")" 0 "progress written to a non-terminal"

# ... and progress on standard error when it is a terminal (script gives it one), a hundredth
# of the run at a time.
script -qec "\"$IDEMLAB\" simulate --strategy naive --requests 3000 --format csv >/dev/null" /dev/null >"$work/tty" 2>&1
grep -q "simulate naive: 1500/3000 requests" "$work/tty" || fail "no progress on a terminal: $(cat "$work/tty")"
checks=$((checks + 1))

for bad in "--strategy nope" "--strategy naive --requests 0" "--strategy naive --fault meteor" \
           "--strategy naive --fault crash:after=nowhere" "--strategy naive --retry attempts=0" \
           "--strategy naive --retry colour=red" "--strategy naive --scenario no-such" \
           "--strategy naive --requests 1000 --timeline" "--strategy naive --format xml" \
           "--requests 5"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$IDEMLAB" simulate $bad
  expect_one_error_line
done

# p99 by nearest rank: of three requests, the one held up 350 ms sets it.
expect_exit 0 "$IDEMLAB" simulate --strategy naive --requests 3 --concurrency 1 \
  --fault slow:ms=350,nth=2 --format json
expect_equal "$(json_field "$out" latency_ms_p99)" 362 "p99 of a 3-request run"

# A run from a scenario file prints a reproduce: line that runs and gives the same output.
cat >"$work/mine.toml" <<'TOML'
name = "my scenario"
requests = 40
faults = ["response-lost:p=0.2"]
TOML
expect_exit 0 "$IDEMLAB" simulate --strategy state-machine --scenario "$work/mine.toml"
first=$out
reproduce=$(printf '%s\n' "$out" | sed -n '/^reproduce: idemlab /,$p' | sed 's/^reproduce: idemlab //')
expect_contains "$reproduce" "--scenario $work/mine.toml"
expect_exit 0 bash -c "\"\$0\" $reproduce" "$IDEMLAB"  # as pasted: bash joins the lines
expect_equal "$out" "$first" "the reproduce: line of a scenario file's run"

# Double submits show in deliveries per request, not in attempts.
expect_exit 0 "$IDEMLAB" simulate --strategy state-machine --requests 50 \
  --fault double-submit:k=2,p=1 --format json
expect_equal "$(json_field "$out" deliveries_per_request)" 2.0 "deliveries per request"
expect_equal "$(json_field "$out" attempts_per_request)" 1.0 "attempts per request"

# A flag that would have no effect with another is named, not dropped.
for args in "--timeline --format csv" "--timeline-request 2 --format md" "--json --format svg" \
  "--sql" "--timeline --sql --json"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$IDEMLAB" simulate --strategy token --requests 5 $args
  expect_one_error_line
done
expect_exit 2 "$IDEMLAB" explore --strategy token --format svg --json
expect_contains "$err" "--json and --format svg"
finish
