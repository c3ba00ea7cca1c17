# e2e: SIGINT and SIGTERM stop simulate, compare and explore promptly, with the signal's usual
# status (130, 143), and leave nothing in the temporary folder.
source "$(dirname "$0")/../lib.sh"
runs=("simulate --strategy state-machine --requests 1000000"
      "compare --requests 1000000"
      "explore --strategy lock-table --duplicates 4 --max-interleavings 10000000")
for signal in INT TERM; do
  want=130; [ "$signal" = TERM ] && want=143
  for run in "${runs[@]}"; do
    tmp=$work/tmp-$signal; rm -rf "$tmp"; mkdir "$tmp"
    # shellcheck disable=SC2086
    TMPDIR=$tmp "$IDEMLAB" $run >/dev/null 2>"$work/stderr" &
    pid=$!
    sleep 1  # well into the run: its scratch ledger, if any, exists now
    kill -0 "$pid" 2>/dev/null || fail "$run ended before the signal"
    kill -"$signal" "$pid"
    started=$(date +%s%N)
    wait "$pid"; status=$?
    elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
    checks=$((checks + 3))
    [ "$status" = "$want" ] || fail "$run after SIG$signal: exit $status, wanted $want"
    [ "$elapsed_ms" -lt 5000 ] || fail "$run took ${elapsed_ms} ms to stop after SIG$signal"
    left=$(ls -A "$tmp")
    [ -z "$left" ] || fail "$run after SIG$signal left: $left"
  done
done
finish
