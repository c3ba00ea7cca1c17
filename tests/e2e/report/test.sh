# e2e: idemlab report writes one self-contained HTML page: a card per strategy with its guard and
# pitfall diagrams, the matrix, the charts, the lessons; nothing fetched, no script; same inputs
# give the same bytes; it checks its input like every command.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 "$IDEMLAB" report --out "$work/r.html" --requests 60
expect_contains "$out" "wrote $work/r.html"
python3 - "$work/r.html" <<'PY' || fail "report structure"
import re, sys
from html.parser import HTMLParser
page = open(sys.argv[1], encoding="utf-8").read()
class Collect(HTMLParser):
    def __init__(self):
        super().__init__(); self.tags = []; self.classes = []
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.classes.append(dict(attrs).get("class", ""))
parser = Collect(); parser.feed(page)
assert "script" not in parser.tags, "a script"
assert not re.search(r'(src|href)="?(https?:)?//', page), "something fetched"
assert "@import" not in page and "url(http" not in page
cards = [c for c in parser.classes if c == "card strategy"]
assert len(cards) == 9, f"{len(cards)} strategy cards"
assert parser.classes.count("matrix") == 1
# Per strategy a guard's first attempt and repeat, and (8 with pitfalls) the guard in the
# tightest race; one per pitfall (21); three charts.
assert parser.tags.count("svg") == 9 + 8 + 21 + 3, parser.tags.count("svg")
assert page.count("The guard in the tightest race") == 8
for section in page.split("<h3>--pitfall=")[1:]:
    assert section.index('class="diagram"') < section.index("In the simulator"), section[:80]
assert page.count('class="lifeline"') >= 9 * 4
assert 'class="bad"' in page and 'class="good"' in page
assert "idemlab lesson 14" in page
assert len(page) < 5 * 1024 * 1024, len(page)
# A table of contents whose every link lands on an anchor; the overview matrix before the cards;
# a legend for every kind of cell; the baseline's card does not call its run a guard.
links = re.findall(r'<nav class="card" id="contents">.*?</nav>', page, re.S)[0]
anchors = re.findall(r'href="#([^"]+)"', links)
assert len(anchors) >= 9 + 3, anchors
for anchor in anchors:
    assert f'id="{anchor}"' in page, anchor
assert page.index('id="matrix"') < page.index('class="card strategy"')
legend = re.findall(r'<table class="legend">.*?</table>', page, re.S)[0]
for kind in ("ok", "unknown N", "2x N", "lied N", "stuck N", "incons N"):
    assert f">{kind}</td>" in legend, kind
naive = page[page.index('id="naive"'):]
assert "<h3>No guard: a first attempt and its repeat</h3>" in naive[:2000]
assert re.search(r">\d+ ms</text>", page) and not re.search(r"\.\d\d ms<", page)
# The section on replicated servers names the matrix's scenarios that ran a model of them, and
# lists every pitfall, Galera's among them.
replicated = page[page.index('id="replication"'):]
replicated = replicated[:replicated.index("</section>")]
for scenario in ("replica-reads", "ledger-failover", "redis-failover"):
    assert f"<b>{scenario}</b> (" in replicated, scenario
assert "the ledger&#39;s standby 1000 ms behind" in replicated or \
    "the ledger's standby 1000 ms behind" in replicated, replicated[:600]
assert "This page does not run" not in replicated
for name in ("stale-guard-read", "guard-in-async-replica", "guard-outlives-ledger",
             "lock-without-fence", "stale-node-read"):
    assert f"<h3>{name}</h3>" in replicated, name
assert "scripts/servers up postgres-standby redis-sentinel zookeeper galera" in replicated
PY
# Each kind of Reproduce line draws the very diagram the page shows: explain's, explore's, and a
# simulation's for the pitfalls only the simulator shows (two sources, a missing key).
python3 - "$work/r.html" "$IDEMLAB" <<'PY' || fail "a Reproduce line draws another diagram"
import html, re, subprocess, sys
page = open(sys.argv[1], encoding="utf-8").read()
commands = [html.unescape(c) for c in re.findall(r"Reproduce: <code>(idemlab [^<]*)</code>", page)]
picked = [c for c in commands if "key-without-source" in c or "missing-key" in c]
assert len(picked) == 3, picked
picked += [next(c for c in commands if c.startswith(k)) for k in ("idemlab explain", "idemlab explore")]
for command in picked:
    svg = subprocess.run([sys.argv[2]] + command.split()[1:], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert svg.startswith("<svg") and svg in page, command
PY
# The same bytes from one job as from two: a test of bytes, left to the normal pass as
# same-bytes and compare-jobs are (the sanitizers' pass ran the parallel report above).
if [ -z "${IDEMLAB_SANITIZED:-}" ]; then
  cp "$work/r.html" "$work/first.html"
  expect_exit 0 "$IDEMLAB" report --out "$work/r.html" --requests 60 --jobs 1
  cmp -s "$work/r.html" "$work/first.html" || fail "report differs between runs (or --jobs)"
fi
# Narrowed: two strategies, one scenario.
expect_exit 0 "$IDEMLAB" report --out "$work/n.html" --strategies naive,token --scenarios double-click --requests 30
[ "$(grep -o 'class="card strategy"' "$work/n.html" | wc -l)" = 2 ] || fail "narrowed cards"
grep -q "The matrix above ran no scenario on a replicated topology" "$work/n.html" ||
  fail "a matrix with no replicated scenario says so"
expect_exit 2 "$IDEMLAB" report --out "$work/x.html" --scenarios nonsense
expect_one_error_line
[ ! -e "$work/x.html" ] || fail "a refused report left a file"
# report --json: the summary, the file and each scenario's verdicts per strategy.
expect_exit 0 "$IDEMLAB" report --out "$work/j.html" --scenarios double-click --requests 20 --json
expect_equal "$(json_field "$out" out)" "$work/j.html" "report --json's file"
expect_equal "$(json_field "$out" bytes)" "$(stat -c %s "$work/j.html")" "report --json's bytes"
expect_equal "$(printf '%s' "$out" | python3 -c 'import json,sys; m=json.load(sys.stdin)["matrix"]; print(m[0]["scenario"], len(m[0]["rows"]))')" \
  "double-click 9" "report --json's matrix"
finish
