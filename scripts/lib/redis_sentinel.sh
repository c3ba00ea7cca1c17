# Redis as the references deploy it: a primary, one replica and three Sentinels, from Debian's
# redis-server, on 127.0.0.1 and free ports, each a direct child of the script that started it.
# The facts behind the moves: docs/replication.md. Failover settings fast enough for a lesson:
# down after 1 s, a failover may take 3 s.
#
# rs_start DIR: starts the five servers, appends their pids to `pids`. Ready once the replica's
#   link is up and every Sentinel sees the replica and the two other Sentinels.
# The moves (rs_move), each returning once it has certainly happened:
#   cut: from now on the replica receives nothing the primary acknowledges: replication has a
#     user of its own, switched off and its connection killed; every reconnect then fails.
#   failover: the primary is killed (SIGKILL); returns once every Sentinel names the replica as
#     the primary and it takes a write. The killed node is down until `rejoin`. A replica cut
#     long ago stays eligible (rs_eligible_down_after).
#   rejoin: the killed node comes back as the new primary's replica, once the Sentinels have
#     settled on the new primary; returns once every Sentinel lists it as a healthy replica,
#     one the next failover can promote.
rs_master=idemlab
rs_repl_password=idemlab-repl
rs_dir="" rs_primary="" rs_replica="" rs_down="" rs_sentinels=() rs_switched_at=0 rs_cut_at=0
declare -A rs_pid=()

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

rs_start_node() {  # PORT ARGS...: a data node, its pid in pids and rs_pid
  local port=$1; shift
  setpriv --reuid=redis --regid=redis --init-groups -- redis-server "$rs_dir/$port.conf" "$@" \
    >>"$rs_dir/node-$port.log" 2>&1 &
  pids+=($!)
  rs_pid[$port]=$!
}

rs_start() {  # DIR
  rs_dir=$1
  local port i
  mkdir -p "$rs_dir"
  rs_primary=$(free_port) rs_replica=$(free_port) rs_down=""
  rs_sentinels=("$(free_port)" "$(free_port)" "$(free_port)")
  for port in "$rs_primary" "$rs_replica"; do
    mkdir -p "$rs_dir/$port"
    rs_node_conf "$port" "$rs_dir/$port" >"$rs_dir/$port.conf"
  done
  for i in 0 1 2; do
    port=${rs_sentinels[$i]}
    mkdir -p "$rs_dir/s$port"
    printf '%s\n' "port $port" "bind 127.0.0.1" "dir $rs_dir/s$port" \
      "sentinel monitor $rs_master 127.0.0.1 $rs_primary 2" \
      "sentinel down-after-milliseconds $rs_master 1000" \
      "sentinel failover-timeout $rs_master 3000" \
      "sentinel parallel-syncs $rs_master 1" >"$rs_dir/s$port.conf"
  done
  chown -R redis: "$rs_dir"
  rs_start_node "$rs_primary"
  rs_start_node "$rs_replica" --replicaof 127.0.0.1 "$rs_primary"
  for port in "${rs_sentinels[@]}"; do
    setpriv --reuid=redis --regid=redis --init-groups -- redis-server "$rs_dir/s$port.conf" \
      --sentinel >"$rs_dir/sentinel-$port.log" 2>&1 &
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

rs_url() {
  local list="" port
  for port in "${rs_sentinels[@]}"; do list+="${list:+,}127.0.0.1:$port"; done
  echo "redis-sentinel://$list/$rs_master"
}
rs_urls() {
  echo "export IDEMLAB_TEST_REDIS_SENTINEL='$(rs_url)'"
  echo "export IDEMLAB_TEST_REDIS_PRIMARY='redis://127.0.0.1:$rs_primary'"
  echo "export IDEMLAB_TEST_REDIS_REPLICA='redis://127.0.0.1:${rs_replica:-$rs_down}'"
}
rs_env() { echo "export IDEMLAB_REDIS='$(rs_url)'"; }
rs_state() {
  declare -p rs_dir rs_primary rs_replica rs_down rs_sentinels rs_switched_at rs_cut_at rs_pid
}

rs_need_replica() {
  [ -n "$rs_replica" ] ||
    { echo "error: $rs_down is down and there is no replica: scripts/servers redis rejoin" >&2; exit 2; }
}

rs_cut() {
  rs_need_replica
  rs_cli "$rs_primary" ACL SETUSER repl off >/dev/null
  rs_cli "$rs_primary" CLIENT KILL USER repl >/dev/null
  wait_until 10 redis-sentinel bash -c \
    "redis-cli -h 127.0.0.1 -p $rs_primary INFO replication | grep -q '^connected_slaves:0'"
  rs_cut_at=$(date +%s%3N)
}

rs_switched() {  # every Sentinel names the replica, and it takes a write
  local port
  for port in "${rs_sentinels[@]}"; do
    [ "$(rs_cli "$port" SENTINEL get-master-addr-by-name "$rs_master" | tail -1)" = "$rs_replica" ] ||
      return 1
  done
  [ "$(rs_cli "$rs_replica" SET idemlab:failover-check 1)" = OK ]
}

# Sentinel skips a replica whose link has been down longer than ten times down-after-
# milliseconds plus the time the primary has been down: a replica cut more than about nine
# down-after periods before the kill would never be promoted. However long the test took
# between its cut and its failover (seconds on a loaded machine, under the sanitizers), the
# failover's down-after is long enough for the replica to stay eligible: 1 s as configured for a
# cut up to 4 s old, longer for an older one (a 27 s cut: 3.5 s). Put back once it switched.
rs_eligible_down_after() {
  local ms=1000
  if [ "$rs_cut_at" -gt 0 ]; then
    local cut_ms=$(($(date +%s%3N) - rs_cut_at))
    [ $(((cut_ms + 5000) / 9)) -le "$ms" ] || ms=$(((cut_ms + 5000) / 9))
  fi
  echo "$ms"
}
rs_set_down_after() {  # MS, on every Sentinel
  local port
  for port in "${rs_sentinels[@]}"; do
    [ "$(rs_cli "$port" SENTINEL SET "$rs_master" down-after-milliseconds "$1")" = OK ] || return 1
  done
}

rs_failover() {
  rs_need_replica
  local down_after
  down_after=$(rs_eligible_down_after)
  [ "$down_after" = 1000 ] || rs_set_down_after "$down_after"
  kill -KILL "${rs_pid[$rs_primary]}" 2>/dev/null || true
  wait_until $((30 + down_after / 1000)) redis-sentinel rs_switched
  [ "$down_after" = 1000 ] || rs_set_down_after 1000
  rs_down=$rs_primary rs_primary=$rs_replica rs_replica="" rs_switched_at=$(date +%s) rs_cut_at=0
}

# Settled: every Sentinel names the new primary, with flags "master" alone (a Sentinel may mark a
# new primary down a second after the switch, and fail back to a replica that rejoined too soon).
rs_settled() {
  local port
  for port in "${rs_sentinels[@]}"; do
    [ "$(rs_sentinel_field "$port" flags)" = master ] || return 1
    [ "$(rs_sentinel_field "$port" port)" = "$rs_primary" ] || return 1
  done
}

# Every Sentinel lists PORT as a replica whose flags are "slave" alone (not down), linked up.
rs_replica_listed() {  # PORT
  local sentinel
  for sentinel in "${rs_sentinels[@]}"; do
    rs_cli "$sentinel" SENTINEL replicas "$rs_master" 2>/dev/null | awk -v p="$1" '
      prev == "port" { port = $0 } prev == "flags" { flags = $0 }
      prev == "master-link-status" { if (port == p && flags == "slave" && $0 == "ok") found = 1 }
      { prev = $0 } END { exit !found }' || return 1
  done
}

rs_rejoin() {
  [ -n "$rs_down" ] || { echo "error: no node is down: scripts/servers redis failover first" >&2; exit 2; }
  # Six seconds after the switch, and settled, before the old primary comes back.
  local wait=$((rs_switched_at + 6 - $(date +%s)))
  [ "$wait" -le 0 ] || sleep "$wait"
  wait_until 30 redis-sentinel rs_settled
  local port=$rs_down
  rs_start_node "$port" --replicaof 127.0.0.1 "$rs_primary"
  rs_replica=$port rs_down=""
  wait_until 60 redis-sentinel rs_replica_listed "$port"
}

rs_moves() { echo "cut|failover|rejoin"; }
rs_move() {  # MOVE
  case ${1:-} in
    cut) rs_cut ;;
    failover) rs_failover ;;
    rejoin) rs_rejoin ;;
    *) return 2 ;;
  esac
}
