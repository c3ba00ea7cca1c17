#!/usr/bin/env bash
# simulate, compare, explore and report print the same bytes as when expected/ was recorded
# (./record), on SQLite and on the test servers: a refactoring changes no output. Lines that
# name a server run only with the test servers (scripts/test starts them).
source "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
source "$here/run_line.sh"
servers=yes
[ -n "${IDEMLAB_TEST_POSTGRES:-}" ] || servers=no
[ "$servers" = yes ] || [ "${CI:-}" != true ] || { echo "FAIL: no test servers under CI" >&2; exit 1; }
n=0
while IFS= read -r line; do
  case $line in ''|'#'*) continue ;; esac
  n=$((n + 1))
  name=$(printf '%02d' "$n")
  case $line in *'{pg}'*|*'{mariadb}'*|*'{redis}'*) [ "$servers" = yes ] || continue ;; esac
  run_line "$line" "$work/$name.out"
  checks=$((checks + 1))
  cmp -s "$work/$name.out" "$here/expected/$name.out" ||
    fail "line $n ($line) printed other bytes: $(diff "$here/expected/$name.out" "$work/$name.out" | head -n 8)"
done <"$here/commands"
finish
