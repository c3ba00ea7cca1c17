# e2e: idemlab explore.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 "$IDEMLAB" explore --strategy select-insert --json
expect_equal "$(json_field "$out" breaking)" 0 "safe select-insert"
[ "$(json_field "$out" interleavings)" -gt 1 ] || fail "interleavings"
expect_exit 0 "$IDEMLAB" explore --strategy select-insert --pitfall
expect_contains "$out" "First breaking interleaving"
expect_contains "$out" "moved_twice_or_more"
# Values, not SQL, unless --sql.
expect_contains "$out" "no flow row"
expect_contains "$out" "money moved"
case "$out" in *"INSERT INTO"*) fail "SQL in the timeline without --sql" ;; esac
expect_exit 0 "$IDEMLAB" explore --strategy select-insert --pitfall --sql
expect_contains "$out" "INSERT INTO transfer_flow"
# The ABA: the version goes 0->1 and back down.
expect_exit 0 "$IDEMLAB" explore --strategy optimistic-lock --pitfall
expect_contains "$out" "version 0→1"
expect_contains "$out" "version down by one"
expect_contains "$out" "request 1 sent twice at once"
# --crash: a crash point and the late retry; safe strategies survive it.
expect_exit 0 "$IDEMLAB" explore --strategy dedup-table --pitfall --crash
expect_contains "$out" "stuck"
expect_contains "$out" "then a late retry"
expect_exit 0 "$IDEMLAB" explore --strategy dedup-table --crash --json
expect_equal "$(json_field "$out" breaking)" 0 "dedup-table --crash breaking"
expect_exit 0 "$IDEMLAB" explore --strategy optimistic-lock --pitfall --json
[ "$(json_field "$out" breaking)" -ge 1 ] || fail "optimistic-lock --pitfall"
printf '%s' "$out" | python3 -c "import json,sys; d=json.load(sys.stdin)['first_breaking']; assert d['timeline'] and d['schedule']" ||
  fail "first_breaking lacks a timeline"
# --interleaving N shows the Nth tried: the first breaking one is the same as its number.
expect_exit 0 "$IDEMLAB" explore --strategy optimistic-lock --pitfall --json
first=$(printf '%s' "$out" | python3 -c "import json,sys; print(json.load(sys.stdin)['first_breaking']['schedule'])")
number=$(python3 - "$IDEMLAB" <<'PY'
import json, subprocess, sys
for n in range(1, 200):
    run = subprocess.run([sys.argv[1], "explore", "--strategy", "optimistic-lock", "--pitfall",
                          "--interleaving", str(n), "--json"], capture_output=True, text=True)
    picked = json.loads(run.stdout)["picked"]
    if picked["invariants"]:
        print(n, picked["schedule"]); break
PY
)
expect_equal "${number#* }" "$first" "the first breaking interleaving is the first --interleaving that breaks"
expect_exit 0 "$IDEMLAB" explore --strategy optimistic-lock --pitfall --interleaving "${number%% *}"
expect_contains "$out" "Interleaving ${number%% *} (attempt per step"
expect_exit 0 "$IDEMLAB" explore --strategy optimistic-lock --interleaving 1 --format svg
expect_contains "$out" "optimistic-lock: interleaving 1"
expect_contains "$out" "breaks nothing"
expect_exit 2 "$IDEMLAB" explore --strategy optimistic-lock --interleaving 100000
expect_one_error_line
expect_contains "$err" "tried only 70 interleavings"
expect_exit 2 "$IDEMLAB" explore --strategy optimistic-lock --interleaving 0
expect_exit 0 "$IDEMLAB" explore --strategy select-for-update --duplicates 3 --json
expect_equal "$(json_field "$out" interleavings)" 90 "select-for-update, three duplicates: 6!/(2!2!2!)"
expect_equal "$(json_field "$out" breaking)" 0 "select-for-update, three duplicates"
expect_exit 0 "$IDEMLAB" explore --strategy naive --duplicates 3 --max-interleavings 5 --json
expect_equal "$(json_field "$out" truncated)" true "truncated"
expect_equal "$(json_field "$out" interleavings)" 5 "stopped at the cap"
expect_exit 2 "$IDEMLAB" explore --strategy naive --duplicates 9
expect_one_error_line
finish
