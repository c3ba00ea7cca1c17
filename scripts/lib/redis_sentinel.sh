# Redis as the references deploy it: a primary, one replica and three Sentinels, from Debian's
# redis-server, on 127.0.0.1 and free ports, each a direct child of the script that sources
# this (scripts/servers). Facts and traps: ../shared/REPLICATION.md.
#
# start_redis_sentinel DIR: starts the five servers, appends their pids to `pids`, and sets
# rs_primary, rs_replica (ports), rs_sentinels (three ports), rs_primary_pid. Ready once the
# replica's link is up and every Sentinel sees the replica and the two other Sentinels.
# redis_cut: from now on the replica receives nothing the primary acknowledges: replication has
#   a user of its own, switched off and its connection killed; every reconnect then fails.
# redis_failover: the primary is killed (SIGKILL); returns once every Sentinel names the replica
#   as the primary and it takes a write.
# Failover settings fast enough for a lesson: down after 1 s, a failover may take 3 s.
rs_master=idemlab
rs_repl_password=idemlab-repl

# Bounded: a server that accepts and never answers (a port another took) does not hang a wait.
rs_cli() { timeout 5 redis-cli -h 127.0.0.1 -p "$@"; }

# The Sentinel's view of the primary: one field of SENTINEL master (num-slaves, flags, ...).
rs_sentinel_field() {  # PORT FIELD
  rs_cli "$1" SENTINEL master "$rs_master" 2>/dev/null | awk -v f="$2" 'prev == f {print; exit} {prev = $0}'
}

rs_node_conf() {  # PORT DIR: a data node's settings; replication runs as the user repl
  cat <<CONF
port $1
bind 127.0.0.1
dir $2
save ""
appendonly no
user default on nopass ~* &* +@all -psync -sync
user repl on >$rs_repl_password +psync +replconf +ping
masteruser repl
masterauth $rs_repl_password
CONF
}

rs_ready() {
  rs_cli "$rs_replica" INFO replication | grep -q '^master_link_status:up' || return 1
  local port
  for port in "${rs_sentinels[@]}"; do
    [ "$(rs_sentinel_field "$port" num-slaves)" = 1 ] || return 1
    [ "$(rs_sentinel_field "$port" num-other-sentinels)" = 2 ] || return 1
  done
}

start_redis_sentinel() {
  local base=$1 port i
  mkdir -p "$base"
  rs_primary=$(free_port) rs_replica=$(free_port)
  rs_sentinels=("$(free_port)" "$(free_port)" "$(free_port)")
  for port in "$rs_primary" "$rs_replica"; do
    mkdir -p "$base/$port"
    rs_node_conf "$port" "$base/$port" >"$base/$port.conf"
  done
  echo "replicaof 127.0.0.1 $rs_primary" >>"$base/$rs_replica.conf"
  for i in 0 1 2; do
    port=${rs_sentinels[$i]}
    mkdir -p "$base/s$port"
    printf '%s\n' "port $port" "bind 127.0.0.1" "dir $base/s$port" \
      "sentinel monitor $rs_master 127.0.0.1 $rs_primary 2" \
      "sentinel down-after-milliseconds $rs_master 1000" \
      "sentinel failover-timeout $rs_master 3000" \
      "sentinel parallel-syncs $rs_master 1" >"$base/s$port.conf"
  done
  chown -R redis: "$base"
  setpriv --reuid=redis --regid=redis --init-groups -- redis-server "$base/$rs_primary.conf" \
    >"$base/primary.log" 2>&1 &
  rs_primary_pid=$!
  pids+=($!)
  setpriv --reuid=redis --regid=redis --init-groups -- redis-server "$base/$rs_replica.conf" \
    >"$base/replica.log" 2>&1 &
  pids+=($!)
  for port in "${rs_sentinels[@]}"; do
    setpriv --reuid=redis --regid=redis --init-groups -- redis-server "$base/s$port.conf" \
      --sentinel >"$base/sentinel-$port.log" 2>&1 &
    pids+=($!)
  done
  # Sentinel asks the primary for its replicas every 10 s and hears the others every 2 s: ready
  # in 7 to 14 s here unloaded. Bounded well past that for a busy machine; on failure it says
  # which part never came (each server's log follows from wait_until).
  wait_until 60 redis-sentinel rs_ready || { rs_report >&2; return 1; }
}

rs_report() {  # what rs_ready waits for, as each server sees it now
  echo "replica $rs_replica: $(rs_cli "$rs_replica" INFO replication 2>&1 | grep -m1 -e link_status -e refused)"
  local port
  for port in "${rs_sentinels[@]}"; do
    echo "sentinel $port: replicas $(rs_sentinel_field "$port" num-slaves)," \
      "other sentinels $(rs_sentinel_field "$port" num-other-sentinels)"
  done
}

redis_cut() {
  rs_cli "$rs_primary" ACL SETUSER repl off >/dev/null
  rs_cli "$rs_primary" CLIENT KILL USER repl >/dev/null
  wait_until 10 redis-sentinel bash -c \
    "redis-cli -h 127.0.0.1 -p $rs_primary INFO replication | grep -q '^connected_slaves:0'"
}

rs_switched() {  # every Sentinel names the replica, and it takes a write
  local port
  for port in "${rs_sentinels[@]}"; do
    [ "$(rs_cli "$port" SENTINEL get-master-addr-by-name "$rs_master" | tail -1)" = "$rs_replica" ] ||
      return 1
  done
  [ "$(rs_cli "$rs_replica" SET idemlab:failover-check 1)" = OK ]
}

redis_failover() {
  kill -KILL "$rs_primary_pid" 2>/dev/null || true
  wait_until 30 redis-sentinel rs_switched
}
