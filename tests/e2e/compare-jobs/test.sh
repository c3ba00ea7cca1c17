# e2e: compare gives the same bytes whatever --jobs: every built-in scenario, seeds 1 and 424242,
# --jobs 1 (one strategy at a time) against --jobs 2 (two at once, each on its own ledger), 150
# requests each (30 rows per run: every strategy and every pitfall).
source "$(dirname "$0")/../lib.sh"
scenarios=$("$IDEMLAB" scenarios --json | python3 -c \
  'import json,sys; print(" ".join(s["name"] for s in json.load(sys.stdin)["scenarios"]))')
[ -n "$scenarios" ] || fail "no built-in scenarios listed"
for scenario in $scenarios; do
  for seed in 1 424242; do
    run=(compare --scenario "$scenario" --seed "$seed" --requests 150 --with-pitfalls --format json)
    expect_exit 0 "$IDEMLAB" "${run[@]}" --jobs 1
    serial=$out
    expect_exit 0 "$IDEMLAB" "${run[@]}" --jobs 2
    expect_equal "$(printf '%s' "$out" | sha256sum)" "$(printf '%s' "$serial" | sha256sum)" \
      "compare --scenario $scenario --seed $seed: --jobs 2 against --jobs 1"
  done
done
finish
