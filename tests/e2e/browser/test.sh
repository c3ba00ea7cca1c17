# e2e: the report and an SVG diagram in a real browser (headless Chromium, which
# scripts/install-deps installs): they load with no console error and no network request, the
# expected elements are there, no text overflows its box, every figure and section fits a
# 1280x720 slide with its diagram's labels at 12 px, and screenshots at 1280x720 and 1920x1080
# are not blank.
source "$(dirname "$0")/../lib.sh"
browser=$(command -v chromium || command -v chromium-browser) || { fail "chromium is not installed (scripts/install-deps installs it)"; finish; }
chrome() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --no-first-run --disable-background-networking --disable-component-update --disable-sync \
  --disable-default-apps --disable-extensions --disable-spell-checking \
  --disable-features=Translate,OptimizationHints,MediaRouter,AccountConsistency \
  --host-resolver-rules="MAP * ~NOTFOUND" "$@" 2>>"$work/chrome.log"; }

expect_exit 0 "$IDEMLAB" report --out "$work/r.html" --requests 60
expect_exit 0 "$IDEMLAB" explore --strategy optimistic-lock --pitfall --format svg
printf '%s' "$out" >"$work/d.svg"

# A copy of the page with a probe script that reports what it finds in the title.
python3 - "$work/r.html" "$work/probe.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
probe = """<script>
window.addEventListener('load', () => {
  const overflow = [];
  for (const el of document.querySelectorAll('.card, p, h1, h2, h3, td, th, li'))
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible')
      overflow.push(el.tagName + ':' + el.textContent.slice(0, 40));
  for (const svg of document.querySelectorAll('svg')) {
    const width = svg.viewBox.baseVal && svg.viewBox.baseVal.width || svg.width.baseVal.value;
    for (const text of svg.querySelectorAll('text')) {
      const box = text.getBBox();
      if (box.x < -1 || box.x + box.width > width + 1) overflow.push('svg text:' + text.textContent.slice(0, 40));
    }
  }
  // Slides: every figure, card introduction, section and slide fits 1280x720.
  const oversize = [];
  for (const el of document.querySelectorAll('.figure, .intro, .slide, section.card:not(.strategy)')) {
    const r = el.getBoundingClientRect();
    if (r.width > 1280 || r.height > 720)
      oversize.push(Math.round(r.width) + 'x' + Math.round(r.height) + ':' + el.textContent.slice(0, 40));
  }
  // Labels a class can read from the back: every diagram's text at least 12 px on the screen.
  const small = [];
  for (const svg of document.querySelectorAll('.diagram svg')) {
    const text = svg.querySelector('text');
    const px = parseFloat(getComputedStyle(text).fontSize) * svg.getScreenCTM().a;
    if (px < 11.9) small.push(px.toFixed(1) + ' px:' + text.textContent.slice(0, 40));
  }
  document.title = JSON.stringify({
    small: small.slice(0, 10),
    figures: document.querySelectorAll('.figure').length,
    oversize: oversize.slice(0, 10),
    cards: document.querySelectorAll('.card.strategy').length,
    diagrams: document.querySelectorAll('.diagram svg').length,
    lifelines: document.querySelectorAll('g.lifeline').length,
    arrows: document.querySelectorAll('.arrow').length,
    matrix: document.querySelectorAll('table.matrix td').length,
    resources: performance.getEntriesByType('resource').map(e => e.name),
    overflow: overflow.slice(0, 10)});
});
</script>"""
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", probe + "</body>"))
PY
chrome --enable-logging=stderr --v=0 --virtual-time-budget=5000 --window-size=1280,720 --dump-dom \
  "file://$work/probe.html" >"$work/dom.html"
python3 - "$work/dom.html" <<'PY' || fail "report in the browser: $(head -c 300 "$work/dom.html")"
import html, json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
head = dom[:dom.index("</head>")]
found = json.loads(html.unescape(re.search(r"<title>(.*?)</title>", head, re.S).group(1)))
assert not found["resources"], found["resources"]   # the page fetched nothing
assert found["cards"] == 9, found
assert found["diagrams"] >= 30, found
assert found["lifelines"] >= 9 * 4, found
assert found["arrows"] >= 100, found
assert found["matrix"] >= 16 * 9, found
assert not found["overflow"], found["overflow"]
assert found["figures"] == 9 + 8 + 21, found      # guards, races, every pitfall: a figure each
assert not found["oversize"], found["oversize"]   # each fits a 1280x720 slide
assert not found["small"], found["small"]         # and its labels are 12 px there
PY

# No console message at all (the report has no script; the probe logs nothing).
grep 'CONSOLE' "$work/chrome.log" && fail "console messages: $(grep CONSOLE "$work/chrome.log" | head -3)"

# Screenshots that are not blank: many distinct colours.
for size in 1280,720 1920,1080; do
  for page in r.html d.svg; do
    rm -f "$work/shot.png"
    chrome --window-size="$size" --screenshot="$work/shot.png" "file://$work/$page" >/dev/null
    python3 - "$work/shot.png" <<'PY' || fail "blank screenshot of $page at $size"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
chunks, at = [], 8
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    chunks.append((kind, data[at + 8:at + 8 + length])); at += 12 + length
raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
assert len(set(raw[i:i + 3] for i in range(0, min(len(raw), 3_000_000), 3))) > 20
PY
  done
done
finish
