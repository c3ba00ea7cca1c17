# e2e: a ledger on a MariaDB Galera cluster of three nodes (scripts/servers up galera), twins on
# different nodes, each held at a gate before its COMMIT until both have arrived.
# select-for-update: the twin on the other node is not made to wait; at COMMIT the cluster rolls
# one back (1213, certification_failed), answered busy (75); its retry replays. direct-insert and
# dedup-table: exactly once, the loser certification_failed at COMMIT or a repeat.
# select+insert without its unique index, its select on a node whose applier is held: with
# wsrep_sync_wait=0 the select misses the first attempt and the money moves twice, every run;
# with wsrep_sync_wait=1 the select waits for the node to catch up and the retry replays.
# explore on the cluster: twins on two nodes, the same bytes every run; report's engines section
# with the cluster's column. The simulator's model of a cluster agrees case by case
# (tests/e2e/parity.table). serve's pool and consume take the nodes in turn, every answer and history row
# naming its node; an autocommit INSERT with wsrep_retry_autocommit 1 and 0
# (scripts/galera-autocommit). explore rides a node's loss out (at the end). One cluster for the
# file.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../serve_lib.sh"
require_test_servers
own_server_databases galera  # for the engine lesson's single servers
export IDEMLAB_SERVERS_STATE=$work/servers.state
trap '"$ROOT/scripts/servers" down' EXIT
started=$SECONDS
"$ROOT/scripts/servers" up galera >/dev/null || { fail "the cluster did not start"; finish; }
echo "galera: up in $((SECONDS - started)) s"
eval "$("$ROOT/scripts/servers" env)"
cluster=$IDEMLAB_TEST_GALERA
servers() { "$ROOT/scripts/servers" galera "$@"; }
expect_exit 0 "$IDEMLAB" init --db "$cluster" --force
expect_contains "$out" "with 3 accounts"

# at_gate GATE PID: until that very process has arrived at the gate, or ended (bounded).
at_gate() {
  local _
  for _ in $(seq 1 6000); do
    [ -e "$1/arrived.$2" ] && return
    kill -0 "$2" 2>/dev/null || return
    sleep 0.01
  done
}
# twins STRATEGY BIZ_SEQ STEP ARGS...: one copy on node 1, one on node 2, held at the gate at STEP
# until both arrived; sets exits ("0 75", sorted), outputs, and each one's SQL in trace1/trace2.
gates=0
twins() {
  local strategy=$1 biz_seq=$2 step=$3; shift 3
  gates=$((gates + 1))
  local gate=$work/gate-$gates n pid=()
  mkdir "$gate"
  for n in 1 2; do
    "$IDEMLAB" "$strategy" --db "$cluster?node=$n" --biz-seq "$biz_seq" --from alice --to bob \
      --amount 1.00 --fault "slow:gate=$gate,at=$step" --trace-sql "$work/trace$n" "$@" \
      >"$work/twin$n.out" 2>&1 &
    pid+=($!)
  done
  for n in 0 1; do at_gate "$gate" "${pid[$n]}"; done
  touch "$gate/open"
  local codes=()
  for n in 0 1; do wait "${pid[$n]}"; codes+=($?); done
  exits=$(printf '%s\n' "${codes[@]}" | sort -n | tr '\n' ' ')
  outputs=$(cat "$work/twin1.out" "$work/twin2.out")
}
# The twin that was refused: its node, so that its retry goes there.
refused_node() { grep -l "certification_failed\|busy" "$work/twin1.out" >/dev/null && echo 1 || echo 2; }

# Both held just before COMMIT: each ran every statement, its FOR UPDATE on its own node only.
twins select-for-update u1 commit
expect_equal "$exits" "0 75 " "select-for-update twins on two nodes"
expect_contains "$outputs" "busy: the cluster certified another node's transaction on the same rows first"
expect_contains "$outputs" "(certification_failed, 1213)"
expect_contains "$outputs" "node1]"
expect_contains "$outputs" "node2]"
loser=$(refused_node)
# The refused twin leaves its history row, naming its node and why.
expect_exit 0 "$IDEMLAB" history --db "$cluster?wsrep_sync_wait=1" --biz-seq u1 --json
expect_contains "$out" '"outcome":"busy","reason":"certification_failed"'
expect_contains "$out" "\"node\":\"node$loser\""
# Not made to wait: both reached the gate before COMMIT (on one server the second would wait at
# its FOR UPDATE); the refused twin's COMMIT failed, and it rolled back.
# (Its history rows aside: one written before the COMMIT, rolled back with it, one after.)
expect_equal "$(grep -v '^INSERT INTO attempt' "$work/trace$loser" | tail -n 2 | tr '\n' ' ')" \
  "COMMIT; ROLLBACK; " "the refused twin's last statements"
expect_exit 0 "$IDEMLAB" select-for-update --db "$cluster?node=$loser" --biz-seq u1 --from alice \
  --to bob --amount 1.00
expect_contains "$out" "applied (replayed): u1"
expect_equal "$(pairs "$cluster" u1)" 1 "select-for-update on two nodes, after the retry"
parity_live u1 "$(pairs "$cluster" u1)"

for strategy in direct-insert dedup-table; do
  twins "$strategy" "$strategy-1" commit
  case $exits in
    "0 75 ") expect_contains "$outputs" "(certification_failed, 1213)" ;;
    "0 0 ") expect_contains "$outputs" "applied (replayed)" ;;
    *) fail "$strategy twins on two nodes exited $exits: $outputs" ;;
  esac
  expect_equal "$(pairs "$cluster" "$strategy-1")" 1 "$strategy on two nodes"
  parity_live "$strategy-1" "$(pairs "$cluster" "$strategy-1")" "${exits%% *}"  # the best
done

# select+insert without its unique index; node 2's applier held, so its reads miss node 1's
# commit. wsrep_sync_wait=0: the select on node 2 misses it, and (gated until node 2 has caught
# up, so that nothing is left for certification to catch) the money moves twice.
pay() {  # NODE QUERY BIZ_SEQ ARGS...
  "$IDEMLAB" select-insert --db "$cluster?node=$1$2" --biz-seq "$3" --from alice --to bob \
    --amount 1.00 --pitfall=no-unique-index "${@:4}"
}
for run in 1 2; do
  expect_exit 0 servers hold-applier 2
  expect_exit 0 pay 1 "" "stale-$run"
  gate=$work/gate-stale-$run; mkdir "$gate"
  pay 2 "&wsrep_sync_wait=0" "stale-$run" --fault "slow:gate=$gate,at=begin" >"$work/stale.out" 2>&1 &
  pid=$!
  wait_at_gate "$gate" "$pid"
  expect_exit 0 servers release-applier 2
  touch "$gate/open"
  wait "$pid"; exited=$?; expect_equal "$exited" 0 "run $run: the second attempt on node 2"
  expect_equal "$(pairs "$cluster" "stale-$run")" 2 "run $run: wsrep_sync_wait=0, a stale select"
  [ "$run" = 1 ] && parity_live stale-1 "$(pairs "$cluster" stale-1)"
done
# wsrep_sync_wait=1: the select waits until node 2 has applied what the cluster committed
# before it, and finds the first attempt: a replay.
for run in 1 2; do
  expect_exit 0 servers hold-applier 2
  expect_exit 0 pay 1 "" "causal-$run"
  pay 2 "&wsrep_sync_wait=1" "causal-$run" >"$work/causal.out" 2>&1 &
  pid=$!
  expect_exit 0 servers release-applier 2
  wait "$pid"; exited=$?; expect_equal "$exited" 0 "run $run: the causal read's attempt"
  expect_contains "$(cat "$work/causal.out")" "applied (replayed): causal-$run"
  expect_equal "$(pairs "$cluster" "causal-$run")" 1 "run $run: wsrep_sync_wait=1"
  [ "$run" = 1 ] && parity_live causal-1 "$(pairs "$cluster" causal-1)"
done
# The simulator's cluster agrees, row by row (tests/e2e/parity.table; docs/simulator.md, "A
# Galera cluster"): the twins on two nodes, and the retry on a node whose applier catches up
# between its select and its BEGIN (308 ms after the first commit, as the gate above holds it).
parity_check galera
expect_exit 7 "$IDEMLAB" audit --db "$cluster?node=3"
expect_contains "$out" "applied_more_than_once  api     stale-1"
case $out in *causal*|*" u1 "*|*direct-insert*|*dedup-table*) fail "only stale-N moved twice: $out" ;; esac

# compare --backend on the cluster: the Galera column, each client's connection on the next
# node, and a note that says a cluster's counts vary from run to run. The audit holds on every
# row: what varies is how often a transaction met another node's at COMMIT.
expect_exit 0 "$IDEMLAB" compare --backend "$cluster" --requests 10 \
  --strategies select-for-update,direct-insert
expect_contains "$out" "select-for-update  galera RR"
expect_contains "$out" "note: on galera, each client's connection went to the next of the cluster's 3 nodes"
case $out in *FAIL*) fail "an audit failed on the cluster: $out" ;; esac
expect_exit 0 "$IDEMLAB" compare --backend "$cluster" --requests 5 --strategies direct-insert --json
expect_equal "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"][0]["nodes"])')" \
  3 "compare --json names the nodes"

# report --backend on the cluster, its explore held to the first 40 interleavings (2000, the
# default, take 45 s here): the engines matrix heads the cluster's column "galera", notes that
# its counts vary, says the explore stopped early, and reproduces with --max-interleavings.
expect_exit 0 "$IDEMLAB" report --out "$work/report.html" --backend sqlite --backend "$cluster" \
  --scenarios double-click --strategies select-for-update,direct-insert --requests 10 \
  --max-interleavings 40 --json
expect_contains "$out" "--engine-strategy select-for-update --max-interleavings 40"
python3 - "$work/report.html" <<'PY' || fail "report --backend on the cluster: the engines section"
import re, sys
page = open(sys.argv[1]).read()
section = page[page.index('id="engines"'):]
section = section[:section.index("</section>")]
heads = re.findall(r"<th>([^<]*)</th>", section)
assert heads[:3] == ["strategy", "sqlite", "galera repeatable-read"], heads
assert "the next of the cluster's nodes" in section
assert "40 interleavings, the first of more in explore's order" in section
assert "--max-interleavings 40 --db mariadb://" in section
assert "idemlab:idemlab" not in page
PY

# explore on the cluster: each twin's connection on a node of its own, every commit applied by
# every node before the next step, so that a transaction the commit aborts learns it at the
# same step every run. No interleaving moves money twice; FOR UPDATE on one node never makes
# the twin on another wait (blocking 0, where one server blocks); the twin that meets the
# other's commit is turned away at certification; the same bytes twice. The first 300 of each.
for strategy in select-for-update direct-insert; do
  run=(explore --db "$cluster" --strategy "$strategy" --max-interleavings 300 --json)
  expect_exit 0 "$IDEMLAB" "${run[@]}"
  first=$out
  python3 - "$out" <<'PY' || fail "explore $strategy on the cluster: $out"
import json, sys
d = json.loads(sys.argv[1])
assert d["interleavings"] == 300 and d["breaking"] == 0, d
assert d["blocking"] == 0 and d["certification_failures"] > 0 and "deadlocking" not in d, d
assert d["engine"] == "mariadb" and d["nodes"] == 3, d
PY
  expect_exit 0 "$IDEMLAB" "${run[@]}"
  expect_equal "$out" "$first" "explore $strategy on the cluster: the same bytes twice"
done
# In words: the cluster named, and the twin it turned away named as the cluster's doing.
expect_exit 0 "$IDEMLAB" explore --db "$cluster" --strategy select-for-update --max-interleavings 40
expect_contains "$out" "on a Galera cluster of 3 nodes, mariadb at repeatable-read"
expect_contains "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "the cluster turned attempt"

# The engine lesson with --galera alone: the twins on nodes 1 and 2, one turned away at COMMIT;
# the PostgreSQL and MariaDB steps left out, and said so, in the run and in the block to paste.
expect_exit 0 "$IDEMLAB" lesson one-strategy-three-engines --galera "$cluster"
expect_contains "$out" '--db "$GALERA?node=1"'
expect_contains "$out" "(left out: no --postgres URL; scripts/servers up postgres starts one)"
expect_contains "$out" "Left out: 6 steps with no --mariadb URL, 6 steps with no --postgres URL."
expect_contains "$out" 'done; touch gate/open; wait'
replay=${out#*Run it again}
[[ "$replay" != *'$POSTGRES'* ]] || fail "the block to paste names a server not given: $replay"
expect_contains "$out" "(certification_failed, 1213)"
expect_contains "$out" "ok: 1 transfer applied"

# A command that only reads waits on a Galera node until it has applied what the cluster
# committed before it: an audit of node 2, its applier held, sent before the release (node 2
# lists its query), counts the transfer made on node 1; with wsrep_sync_wait=0, it does not.
expect_exit 0 servers hold-applier 2
before=$(moved "$cluster")
expect_exit 0 "$IDEMLAB" direct-insert --db "$cluster" --biz-seq causal-audit --from alice --to bob \
  --amount 1.00
expect_equal "$(moved "$cluster?node=2&wsrep_sync_wait=0")" "$before" "node 2 held: a plain read misses it"
# query names the node that answered, and why a node's not_found may be stale.
expect_exit 9 "$IDEMLAB" query --db "$cluster?node=2&wsrep_sync_wait=0" --biz-seq causal-audit
expect_contains "$err" "(answered by node2: with wsrep_sync_wait=0 a node may not have applied"
expect_exit 9 "$IDEMLAB" query --db "$cluster?node=2&wsrep_sync_wait=0" --biz-seq causal-audit \
  --json
expect_equal "$(json_field "$out" answered_by)" node2 "query --json names the node"
# A write sent to the held node waits on its global read lock: --busy-timeout-ms bounds that
# wait as it bounds a row lock's, in_progress (5, lock_wait_timeout), never a lost link.
expect_exit 5 "$IDEMLAB" direct-insert --db "$cluster?node=2" --biz-seq held-write --from alice \
  --to bob --amount 1.00 --busy-timeout-ms 1000 --json
expect_equal "$(json_field "$out" reason)" lock_wait_timeout "a write to a held node, past its wait"
"$IDEMLAB" audit --db "$cluster?node=2" --json >"$work/causal-audit.json" 2>&1 &
pid=$!
node2=$IDEMLAB_TEST_GALERA_NODE2
for _ in $(seq 1 6000); do
  [ "$(sql_on "$node2" "SELECT count(*) FROM information_schema.processlist WHERE info IS NOT NULL AND id <> CONNECTION_ID()")" -ge 1 ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.01
done
kill -0 "$pid" 2>/dev/null || fail "the causal audit did not wait for node 2: $(cat "$work/causal-audit.json")"
expect_exit 0 servers release-applier 2
wait_bounded "$pid" "the causal audit"
expect_equal "$wait_status" 0 "the causal audit's exit"
expect_contains "$(cat "$work/causal-audit.json")" "\"times_money_moved\":$((before + 1))"

# serve on the cluster: each request on the next node (serve's check of the ledger before it
# listens takes no turn), its answer naming it (Idemlab-Node); a
# key's replay on another node is its first answer again; history names each attempt's node.
start_serve --db "$cluster" --strategy dedup-table
served=()
for key in s1 s2 s3; do
  post "$key" 'from=alice&to=bob&amount=1.00'
  expect_equal "$status" 201 "serve on the cluster: $key"
  served+=("$(header_value Idemlab-Node)")
  [ "$key" = s1 ] && first=$body
done
expect_equal "${served[*]}" "node1 node2 node3" "three requests, each on the next node"
post s1 'from=alice&to=bob&amount=1.00'
expect_equal "$(header_value Idempotent-Replayed)" true "s1 again, on $(header_value Idemlab-Node)"
expect_equal "$body" "$first" "the replay's body is the first answer's"
stop_serve
expect_exit 0 "$IDEMLAB" history --db "$cluster?wsrep_sync_wait=1" --source http --json
for n in "${!served[@]}"; do
  expect_contains "$out" "\"biz_seq\":\"s$((n + 1))\",\"strategy\":\"dedup-table\",\"pitfall\":null,\"outcome\":\"applied\""
done
expect_equal "$(printf '%s' "$out" | python3 -c 'import json,sys; print(" ".join(a["node"] for a in json.load(sys.stdin)["attempts"][:3]))')" \
  "${served[*]}" "history names each attempt's node"
expect_exit 0 "$IDEMLAB" history --db "$cluster?wsrep_sync_wait=1" --source http
expect_contains "$out" "isolation        node"

# scripts/race on the cluster: process i on node i, gated at the critical step (a FOR UPDATE
# on one node never makes the other wait, so both arrive): one applies, one is turned away.
IDEMLAB_DB=$cluster expect_exit 0 "$ROOT/scripts/race" select-for-update -n 2 --gate --biz-seq race-1
expect_contains "$out" "1 applied"
expect_contains "$out" "1 busy"
expect_contains "$out" "node1: "
expect_contains "$out" "node2: "
expect_contains "$out" "journal pairs for race-1: 1"

# consume on the cluster: one connection per node, each delivery on the next, its line naming
# the node; a producer's copy (a lost confirm) on another node than the first: once.
queue=galera-$$
expect_exit 0 "$IDEMLAB" publish --broker "$IDEMLAB_TEST_AMQP" --queue "$queue" --requests 4 \
  --prefix g --fault confirm-lost:nth=2
expect_exit 0 "$IDEMLAB" consume --broker "$IDEMLAB_TEST_AMQP" --queue "$queue" --db "$cluster" \
  --strategy direct-insert --until-idle 1000
for n in 1 2 3; do expect_contains "$out" "on node$n, acked"; done
expect_contains "$out" "audit: ok"
for n in 1 2 3 4; do expect_equal "$(pairs "$cluster" "g-$n")" 1 "consume on the cluster: g-$n"; done

# An autocommit INSERT racing node 2's applier, wsrep_retry_autocommit=1 and =0: every answer a
# repeat, busy (certification_failed, 1213) or in progress, never unknown or a success; each
# request moved once (the script's exit). Which answer a race gets is the servers' race.
expect_exit 0 "$ROOT/scripts/galera-autocommit" --races 2 --cluster "$cluster"
expect_contains "$out" "wsrep_retry_autocommit=1: 2 races"
expect_contains "$out" "wsrep_retry_autocommit=0: 2 races"
expect_contains "$out" "other 0; every one"
expect_contains "$out" "the journal: 4 requests applied, money moved 4 times"

# Bad input: one error line, exit 2.
expect_exit 2 "$IDEMLAB" audit --db "$cluster?node=4"
expect_contains "$err" "node= is a node's number, from 1 to 3"
expect_exit 2 "$IDEMLAB" audit --db "$cluster?wsrep_sync_wait=16"
expect_one_error_line
# Several PostgreSQL hosts are failover candidates, not a cluster: none of them answering is a
# failover under way as far as a client can tell (75), and a write needs a read-write session.
expect_exit 75 "$IDEMLAB" audit --db "postgresql://u@127.0.0.1:1,127.0.0.1:2/idemlab"
expect_contains "$err" "no server there gave a usable session"
expect_exit 2 "$IDEMLAB" select-insert --db "postgresql://u@127.0.0.1:1,127.0.0.1:2/idemlab" \
  --biz-seq c1 --from alice --to bob --amount 1
expect_contains "$err" "add target_session_attrs=read-write"
expect_exit 2 "$IDEMLAB" audit --db "$cluster?node=1&node=2"
expect_contains "$err" "node= is given twice"

# explore on the cluster through a node's loss: three twins, each on a node of its own. Once its
# walk has begun, the run is stopped (SIGSTOP), at a moment a node holds one of its transactions
# open if hold_while finds one (a twin's, or the reset that starts an interleaving), and that
# node is killed under it; else node 2, whose twin runs in every interleaving still to come. Continued, the run finds its link there lost,
# connects again through the topology (to the nodes still up), runs the cut interleaving again,
# and every one after it on the nodes left, where twins that share a node wait for each other's
# locks instead. Nothing breaks.
open_somewhere() {  # -> 1 if a node holds a transaction open (named in held-node), or 0
  local node url
  for node in 1 2 3; do
    url=IDEMLAB_TEST_GALERA_NODE$node
    [ "$(sql_on "${!url}" "SELECT count(*) FROM information_schema.innodb_trx")" -gt 0 ] &&
      { echo "$node" >"$work/held-node"; echo 1; return; }
  done
  echo 0
}
"$IDEMLAB" explore --db "$cluster" --strategy direct-insert -k 3 --max-interleavings 200 \
  >"$work/explore.out" 2>"$work/explore.err" &
run=$!
walk_begun "$run" "$cluster" && how=$(hold_while "$run" open_somewhere) ||
  fail "explore ended before it was stopped: $(cat "$work/explore.err")"
held=$(cat "$work/held-node" 2>/dev/null)
echo "explore through a node's loss: $how, node ${held:-2} killed"
expect_exit 0 servers kill "${held:-2}"
kill -CONT "$run"
wait "$run"
expect_equal "$?" 0 "explore through a node's loss: $(cat "$work/explore.err")"
said=$(tr '\n' ' ' <"$work/explore.out" | tr -s ' ')
expect_contains "$said" "200 interleavings (steps that commute tried in one order) (stopped at --max-interleavings), 0 breaking"
expect_contains "$said" "A link to the server was lost under the run once (a failover?)"
finish
