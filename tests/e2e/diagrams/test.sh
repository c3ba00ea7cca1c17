# e2e: sequence diagrams. Golden files pin the Mermaid text of fixed commands (regenerate them
# with the commands below when a change to the drawing is meant); the same command gives the
# same bytes; the README's diagram is the output of the command it shows.
source "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")
check_golden() {  # FILE COMMAND...
  local golden=$1; shift
  expect_exit 0 "$IDEMLAB" "$@"
  expect_equal "$out" "$(cat "$here/$golden")" "$golden (regenerate: idemlab $*)"
  local first=$out
  expect_exit 0 "$IDEMLAB" "$@"
  expect_equal "$out" "$first" "$golden twice"
}
check_golden naive-response-lost.mmd simulate --strategy naive --scenario response-lost --timeline-request 1 --format mermaid
check_golden dedup-crash.mmd explore --strategy dedup-table --pitfall --crash --format mermaid
check_golden optimistic-aba.mmd explore --strategy optimistic-lock --pitfall --format mermaid
check_golden state-machine-explain.mmd explain state-machine --pitfall --format mermaid

# What a diagram must hold: the lifelines, a lost answer as a cross, the write lock as a bar,
# the money, the verdict.
out=$(cat "$here/naive-response-lost.mmd")
for part in "sequenceDiagram" "participant C as client" "participant N as network" \
            "participant L as ledger" "-xN:" "activate S1" "deactivate S1" \
            "Note over L: money moved" "Note over C,L: money moved 2 times"; do
  expect_contains "$out" "$part"
done

# SVG: a golden file, well-formed XML with a lifeline per participant, arrows, a lost answer's
# cross, the write-lock bars, the money marks and the caption; no script and nothing fetched.
check_golden optimistic-aba.svg explore --strategy optimistic-lock --pitfall --format svg
expect_exit 0 "$IDEMLAB" simulate --strategy naive --scenario response-lost --timeline-request 1 --format svg
printf '%s' "$out" >"$work/d.svg"
python3 - "$work/d.svg" <<'PY' || fail "svg structure"
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
groups = doc.getElementsByTagName("g")
kinds = [g.getAttribute("class") for g in groups]
assert kinds.count("lifeline") == 5, kinds            # client, network, 2 attempts, ledger
assert "lost arrow" in kinds and kinds.count("money") == 2, kinds
lines = [l for l in doc.getElementsByTagName("line") if "arrow" in l.getAttribute("class")]
assert len(lines) >= 20, len(lines)
assert len([r for r in doc.getElementsByTagName("rect") if r.getAttribute("class") == "bar"]) == 2
assert not doc.getElementsByTagName("script")
text = open(sys.argv[1]).read()
assert "href" not in text and "@import" not in text and "url(http" not in text
assert "money moved 2 times" in text
PY
expect_equal "$out" "$(cat "$ROOT/docs/naive-response-lost.svg")" "docs/naive-response-lost.svg is current"

# The README's diagram is this command's output.
readme=$(sed -n '/^```mermaid$/,/^```$/p' "$ROOT/README.md" | sed '1d;$d')
expect_equal "$readme" "$(cat "$here/naive-response-lost.mmd")" "README's diagram"

# A diagram needs one timeline.
expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 10 --format mermaid
expect_one_error_line
expect_exit 2 "$IDEMLAB" compare --requests 10 --format mermaid
expect_one_error_line
expect_exit 2 "$IDEMLAB" compare --requests 10 --format svg
expect_one_error_line
# The moment a lock expired under its holder is marked where the twin takes it over, on the
# timeline's own clock.
expect_exit 0 "$IDEMLAB" explore --strategy lock-table --pitfall --lock-ttl-ms 3 --format mermaid
expect_contains "$out" "acquire_lock: lock held by attempt-1 until 4 ms"
expect_contains "$out" "Note over L: the lock of r1#35;1 expired at 4 ms#59; r1#35;2 takes it"
finish
