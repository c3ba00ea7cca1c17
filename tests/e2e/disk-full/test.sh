# e2e: a real full disk. A ledger on a 160 KiB tmpfs takes state-machine attempts until the disk
# is full, and 137 more: every failure is exit 75 and names the full disk (JSON: busy,
# disk_full), none says "damaged", though the main file stays shorter than its header says
# while the newest pages wait in the WAL. A report, a --trace-sql file and standard output
# written onto the full disk are refused the same way. Then the tmpfs grows: the next attempt
# applies, the refused requests retried move money once each, every attempt answered applied
# is in the journal, and the audit is clean. Needs root (mount); run by scripts/test, and CI.
source "$(dirname "$0")/../lib.sh"
if [ "$(id -u)" -ne 0 ]; then
  [ "${CI:-}" = true ] && { echo "FAIL: CI runs as root" >&2; exit 1; }
  echo "skipped: mounting a tmpfs needs root"
  exit 77
fi
disk=$work/disk
mkdir -p "$disk"
mount -t tmpfs -o size=160k tmpfs "$disk" || { echo "FAIL: cannot mount a tmpfs" >&2; exit 1; }
trap 'umount "$disk" 2>/dev/null; rm -rf "$work"' EXIT
db=$disk/l.db
expect_exit 0 "$IDEMLAB" init --db "$db"

applied=() refused=() n=0
for n in $(seq 1 200); do
  "$IDEMLAB" state-machine --db "$db" --biz-seq "p$n" --from alice --to bob --amount 1 \
    >"$work/out" 2>"$work/err"
  code=$?
  if [ "$code" = 0 ]; then applied+=("p$n"); continue; fi
  refused+=("p$n")
  checks=$((checks + 1))
  [ "$code" = 75 ] || fail "p$n: exit $code, wanted 75: $(cat "$work/err")"
  grep -q "disk is full" "$work/err" || fail "p$n does not name the full disk: $(cat "$work/err")"
  grep -q "damaged" "$work/err" && fail "p$n calls the ledger damaged: $(cat "$work/err")"
done
checks=$((checks + 1))
[ "${#refused[@]}" -ge 100 ] || fail "the disk never filled: ${#refused[@]} refused of 200"

expect_exit 75 "$IDEMLAB" state-machine --db "$db" --biz-seq j1 --from alice --to bob --amount 1 --json
expect_one_error_line
expect_equal "$(json_field "$out" outcome) $(json_field "$out" reason)" "busy disk_full" "JSON answer"
refused+=(j1)

# What else idemlab writes, onto the full disk: refused with the reason, nothing left behind.
elsewhere=$work/l.db
"$IDEMLAB" init --db "$elsewhere" >/dev/null
expect_exit 75 "$IDEMLAB" report --out "$disk/report.html" --requests 5 --scenarios double-click \
  --strategies naive
expect_one_error_line
expect_contains "$err" "the disk holding $disk/report.html is full"
expect_equal "$(ls "$disk" | grep -c report)" 0 "no report, whole or partial, on the full disk"
expect_exit 75 "$IDEMLAB" select-insert --db "$elsewhere" --biz-seq t1 --from alice --to bob \
  --amount 1 --trace-sql "$disk/trace.sql"
expect_one_error_line
expect_contains "$err" "--trace-sql $disk/trace.sql is incomplete; the attempt answered applied"
expect_equal "$(pairs "$elsewhere" t1)" 1 "the traced attempt stands"
checks=$((checks + 2))
"$IDEMLAB" accounts --db "$elsewhere" --json >"$disk/accounts.json" 2>"$work/err"
code=$?
[ "$code" = 75 ] || fail "standard output on the full disk: exit $code: $(cat "$work/err")"
grep -q "standard output is full" "$work/err" || fail "standard output: $(cat "$work/err")"

# Space comes back: the next attempt applies, every refused request moves money once when
# retried, and nothing answered applied is missing from the journal.
mount -o remount,size=10m "$disk"
expect_exit 0 "$IDEMLAB" state-machine --db "$db" --biz-seq after --from alice --to bob --amount 1
for biz in "${refused[@]}"; do
  "$IDEMLAB" state-machine --db "$db" --biz-seq "$biz" --from alice --to bob --amount 1 >/dev/null
done
checks=$((checks + 1))
for biz in "${applied[@]}" "${refused[@]}" after; do
  [ "$(pairs "$db" "$biz")" = 1 ] || fail "$biz moved money $(pairs "$db" "$biz") times"
done
expect_exit 0 "$IDEMLAB" audit --db "$db"
integrity_ok "$db"
finish
