# A MariaDB Galera cluster of three nodes on this machine, from Debian's mariadb-server and
# galera-4: each node a direct child of the script that started it, as the mysql user, its SQL
# on 127.0.0.1 and a free port (and a unix socket), its group communication, IST and rsync
# state transfer on free ports too. Small buffers. The facts behind the moves:
# docs/replication.md.
#
# gl_start DIR: node 1 bootstraps the cluster (--wsrep-new-cluster) and gets the database
#   and the user idemlab; nodes 2 and 3 join on empty data folders (a full rsync transfer each).
#   Appends their pids to `pids`. Ready once node 1 counts three nodes and each says Synced.
# The moves (gl_move), each returning once it has happened:
#   galera_hold_applier N: node N applies nothing from the others until released: it leaves
#     flow control (wsrep_desync) and a session of ours holds FLUSH TABLES WITH READ LOCK there.
#     Writes sent to node N itself wait too.
#   galera_release_applier N: the session ends, node N rejoins flow control; returns once it
#     has applied everything it had received and says Synced.
#   kill N: node N dies (SIGKILL); returns once the others count two nodes. restart N: it
#     starts again and rejoins (a state transfer); returns once the cluster counts three,
#     each Synced.
gl_dir="" gl_sql=() gl_gcomm=() gl_ist=() gl_sst=() gl_pid=()

gl_sql_on() {  # N SQL: one value, as root over the node's socket
  mariadb --no-defaults -S "$gl_dir/node$1/mariadb.sock" -u root -N -B -e "$2"
}

gl_status() {  # N VARIABLE: a wsrep status variable's value on node N
  gl_sql_on "$1" "SHOW GLOBAL STATUS LIKE '$2'" | cut -f2
}

gl_start_node() {  # N ARGS...: mariadbd for node N, its pid in pids
  local n=$1; shift
  local i
  local cluster=""
  for i in 0 1 2; do cluster+="${cluster:+,}127.0.0.1:${gl_gcomm[$i]}"; done
  mariadbd --no-defaults --user=mysql --datadir="$gl_dir/node$n/data" \
    --socket="$gl_dir/node$n/mariadb.sock" --port="${gl_sql[$((n - 1))]}" --bind-address=127.0.0.1 \
    --pid-file="$gl_dir/node$n/pid" --innodb-buffer-pool-size=64M \
    --innodb-flush-log-at-trx-commit=0 --binlog-format=ROW --innodb-autoinc-lock-mode=2 \
    --max-connections=500 --wsrep-on=ON --wsrep-provider=/usr/lib/galera/libgalera_smm.so \
    --wsrep-cluster-address="gcomm://$cluster" --wsrep-node-address=127.0.0.1 \
    --wsrep-node-name="node$n" --wsrep-sst-method=rsync \
    --wsrep-sst-receive-address="127.0.0.1:${gl_sst[$((n - 1))]}" \
    --wsrep-provider-options="gmcast.listen_addr=tcp://127.0.0.1:${gl_gcomm[$((n - 1))]};ist.recv_addr=127.0.0.1:${gl_ist[$((n - 1))]};gcache.size=16M" \
    "$@" >>"$(dirname "$gl_dir")/galera-node$n.log" 2>&1 &
  pids+=($!)
  gl_pid[$n]=$!
}

gl_synced() {  # N
  [ "$(gl_status "$1" wsrep_local_state_comment)" = Synced ]
}

gl_ready() {
  [ "$(gl_status 1 wsrep_cluster_size)" = 3 ] && gl_synced 1 && gl_synced 2 && gl_synced 3
}

gl_start() {  # DIR
  gl_dir=$1
  gl_sql=() gl_gcomm=() gl_ist=() gl_sst=()
  local n
  for n in 1 2 3; do
    gl_sql+=("$(free_port)") gl_gcomm+=("$(free_port)") gl_ist+=("$(free_port)")
    gl_sst+=("$(free_port)")
    mkdir -p "$gl_dir/node$n/data"
  done
  chown -R mysql: "$gl_dir"
  mariadb-install-db --no-defaults --user=mysql --datadir="$gl_dir/node1/data" --skip-test-db \
    --auth-root-authentication-method=socket >"$(dirname "$gl_dir")/galera-node1.log" 2>&1
  gl_start_node 1 --wsrep-new-cluster
  wait_until 60 galera-node1 gl_synced 1
  gl_sql_on 1 "CREATE DATABASE idemlab;
    CREATE USER idemlab@localhost IDENTIFIED BY 'idemlab';
    CREATE USER idemlab@'127.0.0.1' IDENTIFIED BY 'idemlab';
    GRANT ALL ON *.* TO idemlab@localhost WITH GRANT OPTION;
    GRANT ALL ON *.* TO idemlab@'127.0.0.1' WITH GRANT OPTION;"
  for n in 2 3; do
    gl_start_node "$n"
    wait_until 120 "galera-node$n" gl_synced "$n"
  done
  wait_until 60 galera-node1 gl_ready
}

gl_url() {  # [N]: the URL naming every node, or node N alone
  local n list=""
  if [ -n "${1:-}" ]; then
    echo "mariadb://idemlab:idemlab@127.0.0.1:${gl_sql[$(($1 - 1))]}/idemlab"
    return
  fi
  for n in 0 1 2; do list+="${list:+,}127.0.0.1:${gl_sql[$n]}"; done
  echo "mariadb://idemlab:idemlab@$list/idemlab"
}

gl_node_number() {  # N: a node's number, checked
  case ${1:-} in
    1|2|3) ;;
    *) echo "usage: scripts/servers galera $(gl_moves) 1|2|3" >&2; exit 2 ;;
  esac
}

gl_holding() {  # N: our session holds the read lock (it has reached its SLEEP)
  [ "$(gl_sql_on "$1" "SELECT count(*) FROM information_schema.processlist WHERE info LIKE 'SELECT SLEEP(86400)%'")" -ge 1 ]
}

galera_hold_applier() {  # N
  gl_node_number "$1"
  [ -f "$gl_dir/hold$1.pid" ] && { echo "error: node $1 is held already" >&2; exit 2; }
  gl_sql_on "$1" "SET GLOBAL wsrep_desync = ON"
  setsid mariadb --no-defaults -S "$gl_dir/node$1/mariadb.sock" -u root \
    -e "FLUSH TABLES WITH READ LOCK; SELECT SLEEP(86400)" >/dev/null 2>&1 </dev/null &
  echo $! >"$gl_dir/hold$1.pid"
  wait_until 30 "galera-node$1" gl_holding "$1"
}

gl_released() { ! gl_holding "$1"; }

gl_caught_up() {  # N: nothing left to apply, and Synced
  [ "$(gl_status "$1" wsrep_local_recv_queue)" = 0 ] && gl_synced "$1"
}

galera_release_applier() {  # N
  gl_node_number "$1"
  [ -f "$gl_dir/hold$1.pid" ] || { echo "error: node $1 is not held" >&2; exit 2; }
  # The server ends the session (a client that goes away leaves its SLEEP, and the lock, running).
  local id
  for id in $(gl_sql_on "$1" "SELECT id FROM information_schema.processlist WHERE info LIKE 'SELECT SLEEP(86400)%'"); do
    gl_sql_on "$1" "KILL $id" || true
  done
  kill -TERM "$(cat "$gl_dir/hold$1.pid")" 2>/dev/null || true
  rm -f "$gl_dir/hold$1.pid"
  wait_until 30 "galera-node$1" gl_released "$1"
  gl_sql_on "$1" "SET GLOBAL wsrep_desync = OFF"
  wait_until 60 "galera-node$1" gl_caught_up "$1"
}

gl_urls() {
  echo "export IDEMLAB_TEST_GALERA='$(gl_url)'"
  local n
  for n in 1 2 3; do echo "export IDEMLAB_TEST_GALERA_NODE$n='$(gl_url "$n")'"; done
}
gl_env() { echo "export IDEMLAB_DB='$(gl_url)'"; }
gl_state() { declare -p gl_dir gl_sql gl_gcomm gl_ist gl_sst gl_pid; }

gl_size_is() {  # N SIZE: node N counts SIZE nodes in its primary component
  [ "$(gl_status "$1" wsrep_cluster_size)" = "$2" ] && gl_synced "$1"
}

gl_kill() {  # N
  gl_node_number "$1"
  kill -KILL "${gl_pid[$1]}" 2>/dev/null || true
  local other
  for other in 1 2 3; do
    [ "$other" = "$1" ] || { wait_until 60 "galera-node$other" gl_size_is "$other" 2; return; }
  done
}

gl_restart() {  # N
  gl_node_number "$1"
  kill -0 "${gl_pid[$1]}" 2>/dev/null && { echo "error: node $1 is running" >&2; exit 2; }
  gl_start_node "$1"
  wait_until 120 "galera-node$1" gl_synced "$1"
  wait_until 60 "galera-node$1" gl_size_is "$1" 3
}

gl_moves() { echo "hold-applier|release-applier|kill|restart"; }
gl_move() {  # MOVE N
  case ${1:-} in
    hold-applier) galera_hold_applier "${2:-}" ;;
    release-applier) galera_release_applier "${2:-}" ;;
    kill) gl_kill "${2:-}" ;;
    restart) gl_restart "${2:-}" ;;
    *) return 2 ;;
  esac
}
