# e2e: the docs stand on their own: every relative link in the README and docs/ resolves in a
# clone, and no line cites a file outside the repository.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 /usr/bin/python3 "$(dirname "$0")/links.py" "$ROOT"
expect_equal "$out" "" "links that do not resolve, and files cited outside the repository"
# The check itself finds both kinds.
mkdir -p "$work/tree/docs"
printf '[gone](missing.md) and ../shared/NOTES.md\n' >"$work/tree/docs/a.md"
printf '# readme\n' >"$work/tree/README.md"
expect_exit 0 /usr/bin/python3 "$(dirname "$0")/links.py" "$work/tree"
expect_contains "$out" "docs/a.md:1: missing.md does not resolve in the clone"
expect_contains "$out" "docs/a.md:1: cites a file outside the repository"
finish
