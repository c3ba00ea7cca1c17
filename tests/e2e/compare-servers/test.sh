# e2e: compare --backend and report --backend, the engines side by side on PostgreSQL 15,
# MariaDB 10.11 and SQLite. CI's short compare on each server.
# - One row per (strategy, backend, isolation), a strategy's rows together; JSON rows carry
#   backend, engine and isolation; CSV gains backend and isolation columns.
# - The engine finding shows in one run: select-for-update twins on a missing row move money
#   twice on PostgreSQL READ COMMITTED, never on MariaDB REPEATABLE READ or SQLite.
# - The rows of SQLite are the same bytes as compare without --backend gives.
# - The table fits 100 columns, with the engine under the name when a column would not fit.
# - The report's engines section: the matrix, and per engine the first breaking interleaving
#   (PostgreSQL) or the first deadlock (MariaDB).
# - No scratch ledger is left behind; bad input is one line.
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases compare-servers
pg=$IDEMLAB_TEST_POSTGRES maria=$IDEMLAB_TEST_MARIADB
short=(--scenario double-click --requests 60)

expect_exit 0 "$IDEMLAB" compare "${short[@]}" --strategies state-machine,select-for-update \
  --backend sqlite --backend "$pg" --backend "$maria" --format json
printf '%s' "$out" >"$work/rows.json"
python3 - "$work/rows.json" <<'PY' || fail "compare --backend: rows"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
got = [(r["strategy"], r["engine"], r["isolation"]) for r in rows]
want = [(s, e, l) for s in ("state-machine", "select-for-update")
        for e, l in (("sqlite", "serializable"), ("postgresql", "read-committed"),
                     ("mariadb", "repeatable-read"))]
assert got == want, got
assert all(r["backend"] == "sqlite" or "://" in r["backend"] for r in rows)
assert all("idemlab:idemlab" not in r["backend"] for r in rows), "a password in the output"
twice = {(r["strategy"], r["engine"]): r["moved_twice_or_more"] for r in rows}
assert twice[("select-for-update", "postgresql")] > 0, twice
assert twice[("select-for-update", "mariadb")] == 0, twice
assert twice[("select-for-update", "sqlite")] == 0, twice
assert all(twice[("state-machine", e)] == 0 for e in ("sqlite", "postgresql", "mariadb")), twice
print("rows:", got)
PY
expect_contains "$out" '"command":"idemlab compare --strategies state-machine,select-for-update'
expect_contains "$out" "--backend sqlite --backend postgresql://"

# SQLite's rows are compare's own, byte for byte (the schedule does not depend on --backend).
expect_exit 0 "$IDEMLAB" compare "${short[@]}" --strategies state-machine --format csv
plain=$(printf '%s\n' "$out" | sed -n 2p)
expect_exit 0 "$IDEMLAB" compare "${short[@]}" --strategies state-machine --backend sqlite \
  --backend "$maria" --format csv
expect_contains "$(printf '%s\n' "$out" | sed -n 1p)" "strategy,pitfall,backend,isolation,requests"
expect_equal "$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f1,2,5-)" "$plain" "SQLite's row"

# Every level asked, on each server; the table within 100 columns both ways.
expect_exit 0 "$IDEMLAB" compare --requests 20 --strategies token --backend "$pg" --backend "$maria" \
  --isolation read-committed --isolation serializable
for label in "postgresql RC" "postgresql SER" "mariadb RC" "mariadb SER"; do
  expect_contains "$out" "$label"
done
# (A reproduce: line keeps a URL longer than the width whole, alone on its line, so that it
# pastes: that line alone may be wider.)
over100() { printf '%s\n' "$1" | awk 'length($0) > 100 && $0 !~ /^    [^ ]+( \\)?$/' | wc -l; }
expect_equal "$(over100 "$out")" 0 "lines over 100"
expect_exit 0 "$IDEMLAB" compare --requests 20 --strategies token --with-pitfalls --backend sqlite \
  --backend "$pg" --isolation read-committed --isolation serializable
expect_contains "$out" "strategy, engine"
expect_contains "$out" "  +check-then-delete"
expect_equal "$(over100 "$out")" 0 "stacked lines over 100"

# A password hidden in a reproduce: line (***) says so under it; pasted with IDEMLAB_PASSWORD
# set, the line runs the same run; without it, one error line says how to put it back.
expect_exit 0 "$IDEMLAB" simulate --db "$maria" --strategy token --requests 20
expect_contains "$out" "idemlab:***@"
expect_contains "$out" "(a password is hidden as ***: export IDEMLAB_PASSWORD=... first"
pasted=$(printf '%s\n' "$out" | awk '/^reproduce: / {on = 1; sub(/^reproduce: /, "")}
  on {print; if ($0 !~ /\\$/) exit}')
PATH=$(dirname "$IDEMLAB"):$PATH expect_exit 2 bash -c "$pasted"
expect_one_error_line
expect_contains "$err" "its password is hidden (***), as idemlab prints it: set IDEMLAB_PASSWORD"
IDEMLAB_PASSWORD=idemlab PATH=$(dirname "$IDEMLAB"):$PATH expect_exit 0 bash -c "$pasted"
expect_contains "$out" "token: 20 requests, seed 1"

# The report's engines section.
expect_exit 0 "$IDEMLAB" report --out "$work/report.html" --scenarios double-click,retry-new-key \
  --strategies direct-insert,select-for-update --requests 40 --backend sqlite --backend "$pg" \
  --backend "$maria"
python3 - "$work/report.html" <<'PY' || fail "report --backend: the engines section"
import re, sys
page = open(sys.argv[1]).read()
section = page[page.index('id="engines"'):]
section = section[:section.index("</section>")]
assert "The same strategy on 3 engines" in section
heads = re.findall(r"<th>([^<]*)</th>", section)
assert heads[:4] == ["strategy", "sqlite", "postgresql read-committed", "mariadb repeatable-read"], heads
# The engines disagree on select-for-update only, and each of its cells says so; retry-new-key,
# the client's own pitfall, breaks every cell alike and stands apart from the matrix.
cells = lambda name: re.findall(r'<td class="([\w ]+)">', re.findall(
    rf"<tr><th>{name}</th>(.*?)</tr>", section)[0])
assert cells("select-for-update") == ["good differs", "bad differs", "good differs"], cells("select-for-update")
assert cells("direct-insert") == ["good", "good", "good"], cells("direct-insert")
matrix = section[:section.index("The client's own pitfalls")]
assert "retry-new-key" not in matrix.split("</table>")[0], "the client's pitfall in the matrix"
assert re.search(r"<tr><th>retry-new-key</th><td class=\"bad\">6 of 6</td><td>2x", section)
figures = section.split('<div class="figure">')[1:]
assert len(figures) == 3, len(figures)
assert "No interleaving breaks it here" in figures[0] and "<svg" not in figures[0]
assert "the first breaking interleaving" in figures[1] and "<svg" in figures[1]
assert "the first deadlock" in figures[2] and "Reproduce the deadlock" in figures[2]
assert "idemlab:idemlab" not in page
print("engines section: ok")
PY

expect_equal "$(scratch_left "$pg")" 0 "PostgreSQL: no scratch schema left"
expect_equal "$(scratch_left "$maria")" 0 "MariaDB: no scratch database left"
interrupted_drops_scratch "$pg" "compare on PostgreSQL" compare --strategies state-machine \
  --requests 100000 --backend "$pg"

# Bad input: one error line, exit 2.
expect_exit 2 "$IDEMLAB" compare --backend "$work/ledger.db"
expect_one_error_line
expect_contains "$err" "say --backend sqlite"
expect_exit 2 "$IDEMLAB" compare --backend sqlite --isolation serializable
expect_one_error_line
expect_exit 2 "$IDEMLAB" compare --backend sqlite --backend sqlite
expect_one_error_line
expect_exit 2 "$IDEMLAB" compare --backend "$pg" --isolation serializable --isolation serializable
expect_one_error_line
expect_exit 2 "$IDEMLAB" report --out "$work/r.html" --isolation serializable
expect_one_error_line
expect_exit 2 "$IDEMLAB" report --out "$work/r.html" --max-interleavings 40
expect_one_error_line
expect_contains "$err" "--max-interleavings is for the engines section: add --backend"
expect_exit 2 "$IDEMLAB" report --out "$work/r.html" --backend sqlite --max-interleavings 0
expect_one_error_line
[ ! -e "$work/r.html" ] || fail "a refused report left a file"
expect_exit 2 "$IDEMLAB" compare --backend "nosuch://x"
expect_one_error_line
# A note the engines share is printed once, naming them; the JSON keeps one per engine.
notes_run=(--requests 60 --strategies select-insert,state-machine,lock-table
           --fault response-lost:p=0.2 --fault crash:p=0.1 --backend sqlite --backend "$pg"
           --backend "$maria")
expect_exit 0 "$IDEMLAB" compare "${notes_run[@]}" --width 300
expect_contains "$out" "note: on sqlite, postgresql at read-committed and mariadb at repeatable-read, outside the band"
expect_equal "$(printf '%s\n' "$out" | grep -c '^note: on ')" 1 "one note for three engines"
expect_exit 0 "$IDEMLAB" compare "${notes_run[@]}" --json
expect_equal "$(printf '%s' "$out" | grep -o 'note: on [a-z]*' | sort | tr '\n' ' ')" \
  "note: on mariadb note: on postgresql note: on sqlite " "the JSON keeps one note per engine"
finish
