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
assert parser.tags.count("svg") >= 9 + 18 + 3, parser.tags.count("svg")  # guards, pitfalls, charts
assert page.count('class="lifeline"') >= 9 * 4
assert 'class="bad"' in page and 'class="good"' in page
assert "idemlab lesson 14" in page
assert len(page) < 5 * 1024 * 1024, len(page)
PY
cp "$work/r.html" "$work/first.html"
expect_exit 0 "$IDEMLAB" report --out "$work/r.html" --requests 60 --jobs 1
cmp -s "$work/r.html" "$work/first.html" || fail "report differs between runs (or --jobs)"
# Narrowed: two strategies, one scenario.
expect_exit 0 "$IDEMLAB" report --out "$work/n.html" --strategies naive,token --scenarios double-click --requests 30
[ "$(grep -o 'class="card strategy"' "$work/n.html" | wc -l)" = 2 ] || fail "narrowed cards"
expect_exit 2 "$IDEMLAB" report --out "$work/x.html" --scenarios nonsense
expect_one_error_line
[ ! -e "$work/x.html" ] || fail "a refused report left a file"
finish
