# e2e: `idemlab topology` reads a URL as every command does (db/topology.h) and connects to
# nothing: the kind of topology, its members, the rule for which one a connection uses, and
# --url-for-turn, the URL connection N uses (what scripts/race spreads its processes by).
source "$(dirname "$0")/../lib.sh"

expect_exit 0 "$IDEMLAB" topology --db "$work/t.db"
expect_contains "$out" "one server"

pg='postgresql://idemlab:secret@a:5432,b:5433/idem?target_session_attrs=read-write'
expect_exit 0 "$IDEMLAB" topology --db "$pg" --json
expect_equal "$(json_field "$out" ledger | python3 -c 'import json,sys; print(json.load(sys.stdin)["topology"])')" \
  candidates "a multi-host PostgreSQL URL"
case $out in *secret*) fail "topology printed a password: $out" ;; esac
expect_exit 0 "$IDEMLAB" topology --db "$pg"
expect_contains "$out" "2 failover candidates"
expect_contains "$out" "b:5433"
# Candidates are libpq's to try in turn: every connection is given the whole list.
expect_exit 0 "$IDEMLAB" topology --db "$pg" --url-for-turn 1
expect_equal "$out" "$pg" "a candidates URL for turn 1"

galera='mariadb://idemlab:secret@h:3307,h:3308,h:3309/idem'
expect_exit 0 "$IDEMLAB" topology --db "$galera" --json
expect_contains "$out" '"topology":"cluster"'
for turn in 0 1 2 3 4; do
  expect_exit 0 "$IDEMLAB" topology --db "$galera" --url-for-turn $turn
  expect_equal "$out" "$galera?node=$((turn % 3 + 1))" "the URL of turn $turn on three nodes"
done
# A URL that picks its node keeps it, whatever the turn.
expect_exit 0 "$IDEMLAB" topology --db "$galera?node=2" --url-for-turn 0
expect_equal "$out" "$galera?node=2" "a pinned node"

expect_exit 0 "$IDEMLAB" topology --db "$work/t.db" --guards 'redis-sentinel://s:26379,s:26380/ledger'
expect_contains "$out" "2 Sentinels"
expect_contains "$out" "2. s:26380"
expect_exit 0 "$IDEMLAB" topology --db "$pg" --guards 'zookeeper://z:2181,z:2182' --json
expect_contains "$out" '"members":["a:5432","b:5433"]'
expect_contains "$out" '"members":["z:2181","z:2182"]'
expect_exit 0 "$IDEMLAB" topology --db "$work/t.db" --guards 'zookeeper://z:2181,z:2182'
expect_contains "$out" "tokens and locks"

# Bad input: one line, exit 2, and nothing connected to.
expect_exit 2 "$IDEMLAB" topology --db 'postgresql://a,b/idem?node=2'
expect_one_error_line
expect_exit 2 "$IDEMLAB" topology --db "$galera?node=1&node=2"
expect_one_error_line
expect_contains "$err" "twice"
expect_exit 2 "$IDEMLAB" topology --db "$work/t.db" --guards 'redis-sentinel://s:26379,,s:2/ledger'
expect_one_error_line
expect_exit 2 "$IDEMLAB" topology --db "$work/t.db" --guards 'ftp://x'
expect_one_error_line
expect_exit 2 "$IDEMLAB" topology --db "$galera" --url-for-turn -1
expect_one_error_line
[ -e "$work/t.db" ] && fail "topology created a ledger file"
finish
