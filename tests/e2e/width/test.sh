# e2e: every text output fits --width 80 (a projector's terminal), counted in characters:
# help, tables, prose, timelines, lessons' lists, scenario files. Only `compare --wide`, which
# asks for every column, may be wider. Error lines stay one line each, by contract.
source "$(dirname "$0")/../lib.sh"
db=$work/w.db
expect_exit 0 "$IDEMLAB" init --db "$db"
expect_exit 0 "$IDEMLAB" select-insert --db "$db" --biz-seq w1 --from alice --to bob --amount 1 --fault slow:ms=1,at=debit
expect_exit 0 "$IDEMLAB" naive --db "$db" --biz-seq w2 --from alice --to bob --amount 1
expect_exit 0 "$IDEMLAB" naive --db "$db" --biz-seq w2 --from alice --to bob --amount 1
expect_exit 0 "$IDEMLAB" limit --db "$db" --account alice --set 5

widest() { printf '%s\n' "$1" | python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in sys.stdin))'; }
fits() {  # EXIT ARGS...: runs idemlab ARGS --width 80, expects EXIT and at most 80 columns
  local want=$1; shift
  expect_exit "$want" "$IDEMLAB" "$@" --width 80
  local w; w=$(widest "$out")
  [ "$w" -le 80 ] || fail "'idemlab $*' is $w columns wide at --width 80"
}
fits 0 --help
for command in init accounts audit history query explain simulate compare explore faults \
  scenarios lesson report limit http token topology; do
  fits 0 "$command" --help
done
for strategy in naive select-insert direct-insert state-machine dedup-table token \
  select-for-update optimistic-lock lock-table; do
  fits 0 "$strategy" --help
  fits 0 explain "$strategy"
done
fits 0 explain optimistic-lock --pitfall
fits 0 accounts --db "$db"
fits 0 topology --db 'mariadb://idemlab:pw@node-one.example:3307,node-two.example:3308/idem'
fits 7 audit --db "$db"
fits 0 history --db "$db"
fits 0 query --db "$db" --biz-seq w1
fits 0 limit --db "$db" --account alice
fits 0 http --db "$db" GET /accounts/alice
fits 0 faults
fits 0 scenarios
for scenario in $(ls "$ROOT/scenarios" | sed 's/\.toml$//'); do fits 0 scenarios "$scenario"; done
fits 0 lesson --list
fits 0 simulate --strategy token --requests 50
fits 0 simulate --strategy token --requests 4 --timeline --sql
fits 0 compare --requests 40
fits 0 compare --requests 40 --with-pitfalls
fits 0 explore --strategy optimistic-lock --pitfall --sql
fits 0 explore --strategy dedup-table --pitfall --crash
finish
