# run_line LINE OUT: runs one line of `commands` with $IDEMLAB at a fixed width and without
# colour, into OUT (stdout and stderr, then "exit N" when it is not 0). A server's URL in the
# line and in its output is written as its placeholder, so outputs do not depend on where the
# test servers' sockets are.
run_line() {
  local line=$1 out=$2
  line=${line//\{out\}/report.html}
  line=${line//\{pg\}/${IDEMLAB_TEST_POSTGRES:-}}
  line=${line//\{mariadb\}/${IDEMLAB_TEST_MARIADB:-}}
  line=${line//\{redis\}/${IDEMLAB_TEST_REDIS:-}}
  local code=0
  # In a folder of its own, where {out} is report.html: the report prints its own command.
  local dir; dir=$(mktemp -d)
  # shellcheck disable=SC2086
  (cd "$dir" && "$IDEMLAB" --width 100 --color never $line) >"$out.raw" 2>&1 || code=$?
  [ -f "$dir/report.html" ] && mv "$dir/report.html" "$out.raw"
  rm -rf "$dir"
  [ "$code" = 0 ] || echo "exit $code" >>"$out.raw"
  placeholders <"$out.raw" >"$out"
  rm -f "$out.raw"
}
placeholders() {  # stdin -> stdout, each server's URL (also as shown, with *** for a password)
  local pg=${IDEMLAB_TEST_POSTGRES:-} mariadb=${IDEMLAB_TEST_MARIADB:-} redis=${IDEMLAB_TEST_REDIS:-}
  local mariadb_shown=${mariadb/:idemlab@/:***@}
  if [ -z "$pg" ]; then cat; return; fi
  /usr/bin/python3 -c '
import sys
text = sys.stdin.read()
for url, name in zip(sys.argv[1::2], sys.argv[2::2]):
    text = text.replace(url, name)
sys.stdout.write(text)' "$mariadb" '{mariadb}' "$mariadb_shown" '{mariadb}' "$pg" '{pg}' "$redis" '{redis}'
}
