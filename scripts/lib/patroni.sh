# PostgreSQL 15 behind Patroni 3.0 and etcd 3.4, from Debian's packages: three etcd members
# (scripts/lib/etcd.sh) and three PostgreSQL nodes, each run by its own Patroni (a direct child
# of the script that started it, as the postgres user, its environment emptied: a PGPASSWORD
# inherited would win over the replication passfile Patroni writes). PostgreSQL and Patroni's
# REST API on 127.0.0.1 and free ports, trust authentication on loopback. Patroni decides when
# to fail over (ttl 10 s, loop_wait 2 s, retry_timeout 3 s) and whom to promote;
# maximum_lag_on_failover is 1 GB, so that a failover after `cut` still promotes a replica.
# Patroni talks to etcd through its `etcd:` client (the v2 API), not `etcd3:`: Patroni 3.0.2's
# etcd3 client writes the leader key without comparing, and a leader resumed after a pause
# took the key back from the node Patroni had promoted in 2 of 8 runs (the promoted node's
# timeline then rewound); the v2 client writes it only if it still holds it.
# The facts behind the moves: docs/replication.md.
#
# pt_start DIR: starts etcd, then the three Patroni nodes; ready once a leader takes writes and
#   both replicas stream from it. Appends the pids to `pids`.
# The moves (pt_move), each returning once it has happened:
#   switchover: Patroni hands the leader key to a replica (patronictl); returns once the new
#     leader takes writes and the old one streams from it.
#   failover: the leader's Patroni and PostgreSQL die (SIGKILL, every process); returns once
#     Patroni has promoted a replica and it takes writes. The dead node is down until `rejoin`.
#   rejoin: the dead node's Patroni starts again (pg_rewind); returns once it streams.
#   pause-leader: the leader's Patroni and PostgreSQL stop (SIGSTOP); returns once Patroni has
#     promoted a replica that takes writes, under a live old primary. resume: it goes on
#     (SIGCONT); returns once one leader takes writes and both others stream from it.
#     resume postgres: only its PostgreSQL goes on, its Patroni still stopped; returns once it
#     takes writes (an old primary nobody has demoted yet).
#   sync off|on|strict: asynchronous, synchronous_mode, synchronous_mode_strict; returns once
#     the leader's replication says so.
#   cut: the leader's walsenders stop (SIGSTOP): from now on the replicas receive nothing, for
#     certain (wal_receiver_timeout is 0: no replica reconnects). A failover ends it.
pt_dir="" pt_pg=() pt_api=() pt_pid=() pt_down="" pt_paused=""

pt_url() { echo "postgresql://postgres@127.0.0.1:${pt_pg[$(($1 - 1))]}/idemlab"; }
pt_sql() {  # N SQL: one value, on node N's socket
  "$pg_bin/psql" -qAtX -h "$pt_dir/node$1" -p "${pt_pg[$(($1 - 1))]}" -U postgres -d "${3:-idemlab}" -c "$2"
}
pt_api_get() {  # N PATH: the HTTP status of Patroni's REST API on node N (000: no answer)
  curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:${pt_api[$(($1 - 1))]}/$2" || true
}
pt_leader() {  # the node whose Patroni says it leads (and takes writes), or nothing
  local n
  for n in 1 2 3; do
    [ "$n" = "$pt_paused" ] || [ "$n" = "$pt_down" ] && continue
    [ "$(pt_api_get "$n" primary)" = 200 ] && { echo "$n"; return 0; }
  done
  return 1
}
pt_writable() {  # N: node N is out of recovery and assigns a transaction id
  [ "$(pt_sql "$1" "SELECT pg_is_in_recovery()" 2>/dev/null)" = f ] &&
    pt_sql "$1" "SELECT txid_current()" >/dev/null 2>&1
}
pt_new_leader() {  # OLD: a node other than OLD leads and takes writes
  local n; n=$(pt_leader) && [ "$n" != "$1" ] && pt_writable "$n"
}
pt_streaming() {  # COUNT: the leader takes writes and COUNT replicas stream from it
  local n; n=$(pt_leader) && pt_writable "$n" &&
    [ "$(pt_sql "$n" "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming' AND application_name LIKE 'node_'")" = "$1" ]
}

pt_config() {  # N: node N's Patroni configuration
  local n=$1 pg=${pt_pg[$(($1 - 1))]} api=${pt_api[$(($1 - 1))]}
  cat <<EOF
scope: idemlab
namespace: /idemlab/
name: node$n
log: {level: INFO}  # why it promotes, or will not: in the node's log
restapi: {listen: '127.0.0.1:$api', connect_address: '127.0.0.1:$api'}
etcd: {hosts: '$(etcd_hosts)'}  # v2: see above
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 3
    maximum_lag_on_failover: 1073741824
    synchronous_mode: false
    synchronous_mode_strict: false
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters: {wal_level: replica, hot_standby: 'on', max_wal_senders: 10,
        max_replication_slots: 10, wal_log_hints: 'on', shared_buffers: 16MB,
        max_connections: 200, wal_keep_size: 32MB, max_wal_size: 64MB, min_wal_size: 32MB,
        wal_receiver_timeout: 0, deadlock_timeout: 100ms}
  initdb: [{encoding: UTF8}, {locale: C}, {auth-local: trust}, {auth-host: trust}]
postgresql:
  listen: '127.0.0.1:$pg'
  connect_address: '127.0.0.1:$pg'
  data_dir: $pt_dir/node$n/data
  bin_dir: $pg_bin
  pgpass: $pt_dir/node$n/pgpass
  basebackup: [{checkpoint: fast}]
  authentication:
    superuser: {username: postgres, password: idemlab}
    replication: {username: replicator, password: idemlab}
    rewind: {username: rewinder, password: idemlab}
  pg_hba: ['local all all trust', 'host all all 127.0.0.1/32 trust',
    'host replication all 127.0.0.1/32 trust']
  parameters: {unix_socket_directories: '$pt_dir/node$n', fsync: 'off'}
EOF
}

pt_start_node() {  # N: its Patroni, its pid in pids and pt_pid
  env -i PATH=/usr/bin:/bin LANG=C.UTF-8 HOME="$pt_dir/node$1" \
    setpriv --reuid=postgres --regid=postgres --init-groups -- \
    /usr/bin/patroni "$pt_dir/node$1.yml" >>"$pt_dir/node$1.log" 2>&1 &
  pids+=($!)
  pt_pid[$1]=$!
}

pt_start() {  # DIR
  pt_dir=$1 pt_pg=() pt_api=() pt_pid=() pt_down="" pt_paused=""
  etcd_start "$pt_dir/etcd"
  local n
  for n in 1 2 3; do pt_pg+=("$(free_port)") pt_api+=("$(free_port)"); done
  for n in 1 2 3; do
    mkdir -p "$pt_dir/node$n"
    pt_config "$n" >"$pt_dir/node$n.yml"
  done
  chown -R postgres: "$pt_dir"
  pt_start_node 1
  wait_until 60 patroni pt_leader
  for n in 2 3; do pt_start_node "$n"; done
  n=$(pt_leader)
  pt_sql "$n" "CREATE DATABASE idemlab" postgres >/dev/null
  wait_until 60 patroni pt_streaming 2
}

pt_urls() {
  local hosts="" n
  for n in 1 2 3; do hosts+="${hosts:+,}127.0.0.1:${pt_pg[$((n - 1))]}"; done
  echo "export IDEMLAB_TEST_PATRONI='postgresql://postgres@$hosts/idemlab?target_session_attrs=read-write&connect_timeout=2'"
  for n in 1 2 3; do echo "export IDEMLAB_TEST_PATRONI_NODE$n='$(pt_url "$n")'"; done
  echo "export IDEMLAB_TEST_ETCD='etcd://$(etcd_hosts)'"
}
pt_env() { pt_urls | sed -n "s/^export IDEMLAB_TEST_PATRONI=/export IDEMLAB_DB=/p"; }
pt_state() { etcd_state; declare -p pt_dir pt_pg pt_api pt_pid pt_down pt_paused; }

source "$root/scripts/lib/patroni_moves.sh"
