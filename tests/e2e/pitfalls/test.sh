# e2e: every named pitfall of every strategy, as `explain --json` lists it, fails in the
# command it names (its verdict above zero), and the same command without the pitfall does
# not. success-on-duplicate must also show inconsistent answers.
source "$(dirname "$0")/../lib.sh"
for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                optimistic-lock lock-table; do
  expect_exit 0 "$IDEMLAB" explain "$strategy" --json
  printf '%s' "$out" >"$work/$strategy.json"
  python3 - "$work/$strategy.json" "$IDEMLAB" <<'PY' || fail "$strategy: pitfalls"
import json, shlex, subprocess, sys
info = json.load(open(sys.argv[1]))
binary = sys.argv[2]
problems = []
assert info["pitfalls"], "no pitfalls listed"
for p in info["pitfalls"]:
    for field in ("reference", "removes", "goes_wrong", "exposed_by", "command", "verdict"):
        if not p[field]: problems.append(f"{p['name']}: empty {field}")
    words = shlex.split(p["command"])
    assert words[0] == "idemlab" and f"--pitfall={p['name']}" in words, p["command"]
    def run(args):
        done = subprocess.run([binary] + args[1:] + ["--json"], capture_output=True, text=True)
        if done.returncode != 0: problems.append(f"{args}: exit {done.returncode} {done.stderr}")
        return json.loads(done.stdout or "{}")
    bad = run(words)
    good = run([w for w in words if w != f"--pitfall={p['name']}"])
    verdict = p["verdict"]
    if not bad.get(verdict, 0) > 0: problems.append(f"{p['name']}: {verdict} = {bad.get(verdict)}")
    if good.get(verdict, 1) != 0: problems.append(f"{p['name']} guarded: {verdict} = {good.get(verdict)}")
    if p["name"] == "success-on-duplicate":
        if not bad["inconsistent_answers"] > 0: problems.append("success-on-duplicate: no inconsistent answers")
        if good["inconsistent_answers"] or good["never_moved"]: problems.append(f"guarded lied: {good}")
if problems:
    print("\n".join(problems)); sys.exit(1)
PY
done
# A pitfall a strategy does not have is a usage error naming the ones it has.
expect_exit 2 "$IDEMLAB" simulate --strategy token --pitfall=aba --requests 10
expect_one_error_line
expect_contains "$err" "check-then-delete, success-on-duplicate"
expect_exit 2 "$IDEMLAB" simulate --strategy naive --pitfall --requests 10
expect_contains "$err" "no guard"
# A bare --pitfall is the main one.
expect_exit 0 "$IDEMLAB" simulate --strategy optimistic-lock --pitfall --requests 10 --json
expect_contains "$out" '"pitfall":"aba"'
# One attempt: --no-key is refused by the guarded code and let through by missing-key.
"$IDEMLAB" init --db "$work/k.db" >/dev/null
expect_exit 3 "$IDEMLAB" select-insert --db "$work/k.db" --no-key --biz-seq k1 --from alice --to bob --amount 1
expect_contains "$err" missing_key
for i in 1 2; do
  expect_exit 0 "$IDEMLAB" select-insert --db "$work/k.db" --pitfall=missing-key --no-key --biz-seq k1 --from alice --to bob --amount 1
done
expect_exit 7 "$IDEMLAB" audit --db "$work/k.db"
expect_contains "$out" applied_more_than_once
expect_contains "$out" flow_without_key
# success-on-duplicate in one attempt: a rejected request's repeat is told "applied".
"$IDEMLAB" init --db "$work/s.db" >/dev/null
expect_exit 3 "$IDEMLAB" direct-insert --db "$work/s.db" --pitfall=success-on-duplicate --biz-seq s1 --from alice --to bob --amount 999999
expect_exit 0 "$IDEMLAB" direct-insert --db "$work/s.db" --pitfall=success-on-duplicate --biz-seq s1 --from alice --to bob --amount 999999 --json
expect_contains "$out" '"outcome":"applied"'
expect_exit 3 "$IDEMLAB" direct-insert --db "$work/s.db" --biz-seq s1 --from alice --to bob --amount 999999
# in_progress says who holds the key and until when.
"$IDEMLAB" init --db "$work/l.db" >/dev/null
sqlite3 "$work/l.db" "INSERT INTO lock VALUES ('transfer:api:l1', 9000000000000, 1, 'pid-7')"
expect_exit 5 "$IDEMLAB" lock-table --db "$work/l.db" --biz-seq l1 --from alice --to bob --amount 1 --json
expect_contains "$out" '"holder":{"by":"lock owner pid-7","since_ms":1,"until_ms":9000000000000'
expect_contains "$err" "held by lock owner pid-7 for another "
finish
