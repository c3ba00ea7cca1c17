# e2e: every reproduce: line, at widths 60, 80 and 100, pasted into bash as printed (its lines
# joined by their trailing backslashes, by bash itself), gives back the output it came from,
# byte for byte: simulate, compare and explore, and the runs inside a lesson.
source "$(dirname "$0")/../lib.sh"
cd "$work" || exit 1
PATH=$(dirname "$IDEMLAB"):$PATH  # the reproduce line says "idemlab"

# The reproduce: line of OUTPUT as printed, with the label and its indent taken off.
reproduce_of() {
  printf '%s\n' "$1" | awk '
    /^ *reproduce: / { on = 1; sub(/^ *reproduce: /, "") }
    on { print; if ($0 !~ /\\$/) exit }'
}
pasted() {  # WIDTH COMMAND...: runs COMMAND --width W, then its reproduce: line through bash
  local width=$1; shift
  expect_exit 0 "$@" --width "$width"
  local first=$out line
  line=$(reproduce_of "$first")
  [ -n "$line" ] || fail "no reproduce: line from: $*"
  while IFS= read -r row; do
    [ "${#row}" -le "$width" ] || fail "a reproduce: line is ${#row} columns at --width $width: $row"
  done <<<"$line"
  expect_exit 0 bash -c "$line --width $width"
  expect_equal "$out" "$first" "'$*' pasted back at --width $width"
}
for width in 60 80 100; do
  pasted "$width" idemlab simulate --strategy token --scenario double-click --requests 40
  pasted "$width" idemlab simulate --strategy select-insert --pitfall=no-unique-index \
    --requests 30 --retry attempts=3,key=fresh,jitter=equal --fault 'slow:ms=20,at=critical'
  pasted "$width" idemlab compare --scenario retry-new-key --requests 40 --with-pitfalls
  pasted "$width" idemlab explore --strategy optimistic-lock --pitfall --crash
  pasted "$width" idemlab explore --strategy lock-table --duplicates 3 --max-interleavings 50
done

# A lesson shows a run's output indented under its command, reproduce: line included: pasted,
# it runs the same run (the same reproduce: line comes back).
for width in 60 80 100; do
  expect_exit 0 idemlab lesson unique-id --width "$width"
  line=$(reproduce_of "$out")
  [ -n "$line" ] || fail "no reproduce: line in the lesson at --width $width"
  expect_exit 0 bash -c "$line --width $width"
  again=$(reproduce_of "$out")
  expect_equal "$(printf '%s' "$again" | tr -d '\\\n ')" "$(printf '%s' "$line" | tr -d '\\\n ')" \
    "the lesson's reproduce: line, pasted at --width $width"
done
finish
