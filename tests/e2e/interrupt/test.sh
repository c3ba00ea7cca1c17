# e2e: SIGINT and SIGTERM stop simulate, compare and explore promptly, with the signal's usual
# status (130, 143), and leave nothing in the temporary folder.
source "$(dirname "$0")/../lib.sh"
handles() {  # PID SIGNO: whether the process has installed a handler for the signal
  local mask
  mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$1/status" 2>/dev/null)
  [ -n "$mask" ] && (( (16#$mask >> ($2 - 1)) & 1 ))
}
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
    # A background job of a script starts with SIGINT ignored: a signal sent before idemlab has
    # installed its handlers would be lost, and the run would go on for minutes. Wait until
    # the kernel says both are caught (certain), then a moment more, to be well into the run.
    until handles "$pid" 2 && handles "$pid" 15; do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.01
    done
    sleep 1
    kill -0 "$pid" 2>/dev/null || fail "$run ended before the signal"
    kill -"$signal" "$pid"
    started=$(date +%s%N)
    wait "$pid"; status=$?
    elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
    checks=$((checks + 3))
    [ "$status" = "$want" ] || fail "$run after SIG$signal: exit $status, wanted $want"
    # Promptly: a run that ignored the signal would take minutes; the bound leaves room for a
    # busy machine and the sanitizers.
    [ "$elapsed_ms" -lt 20000 ] || fail "$run took ${elapsed_ms} ms to stop after SIG$signal"
    left=$(ls -A "$tmp")
    [ -z "$left" ] || fail "$run after SIG$signal left: $left"
  done
done
finish
