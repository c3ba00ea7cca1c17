# Three etcd 3.4 members on 127.0.0.1 and free ports, from Debian's etcd-server, each a direct
# child of the script that started it, as the postgres user (the Patroni topology's DCS; its
# members are also the lock store of --locks etcd://). Their data on tmpfs: etcd preallocates
# 64 MB of WAL per member. The v2 API is on as well (--enable-v2): Patroni keeps its keys there
# (scripts/lib/patroni.sh says why); the locks use v3.
#
# etcd_start DIR: starts the three, appends their pids to `pids`; ready once all three are
#   healthy. etcd_hosts: HOST:PORT,HOST:PORT,HOST:PORT for their clients.
# Standalone (scripts/servers up etcd), its moves, each returning once it has happened:
#   kill N: member N dies (SIGKILL); returns once the other two are healthy without it.
#   restart N: it starts again on its data; returns once all three are healthy.
etcd_dir="" etcd_client=() etcd_peer=() etcd_pid=()

etcd_hosts() {
  local hosts="" i
  for i in 0 1 2; do hosts+="${hosts:+,}127.0.0.1:${etcd_client[$i]}"; done
  echo "$hosts"
}

etcd_start_member() {  # N (1-3)
  local n=$1 cluster="" i
  for i in 1 2 3; do cluster+="${cluster:+,}e$i=http://127.0.0.1:${etcd_peer[$((i - 1))]}"; done
  local client=http://127.0.0.1:${etcd_client[$((n - 1))]} peer=http://127.0.0.1:${etcd_peer[$((n - 1))]}
  env -i PATH=/usr/bin:/bin LANG=C.UTF-8 HOME="$etcd_dir" \
    setpriv --reuid=postgres --regid=postgres --init-groups -- /usr/bin/etcd --name "e$n" \
    --data-dir "$etcd_dir/e$n" --listen-client-urls "$client" --advertise-client-urls "$client" \
    --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" \
    --initial-cluster "$cluster" --initial-cluster-state new --initial-cluster-token idemlab \
    --enable-v2=true --logger=zap --log-level=warn >>"$etcd_dir/e$n.log" 2>&1 &
  pids+=($!)
  etcd_pid[$n]=$!
}

etcd_healthy() {
  ETCDCTL_API=3 etcdctl --endpoints="$(etcd_hosts)" --dial-timeout=1s endpoint health >/dev/null 2>&1
}

etcd_start() {  # DIR
  [ -z "$etcd_dir" ] || { echo "error: etcd is up already (patroni's members: IDEMLAB_TEST_ETCD)" >&2; return 1; }
  etcd_dir=$1 etcd_client=() etcd_peer=() etcd_pid=()
  mkdir -p "$etcd_dir"
  chown postgres: "$etcd_dir"
  local n
  for n in 1 2 3; do etcd_client+=("$(free_port)") etcd_peer+=("$(free_port)"); done
  for n in 1 2 3; do etcd_start_member "$n"; done
  wait_until 30 etcd etcd_healthy
}

etcd_state() { declare -p etcd_dir etcd_client etcd_peer etcd_pid; }
etcd_urls() { echo "export IDEMLAB_TEST_ETCD='etcd://$(etcd_hosts)'"; }
etcd_env() { echo "export IDEMLAB_LOCKS='etcd://$(etcd_hosts)'"; }

etcd_member_healthy() {  # N
  ETCDCTL_API=3 etcdctl --endpoints="127.0.0.1:${etcd_client[$(($1 - 1))]}" --dial-timeout=1s \
    endpoint health >/dev/null 2>&1
}
etcd_others_healthy() {  # N: every member but N
  local i
  for i in 1 2 3; do [ "$i" = "$1" ] || etcd_member_healthy "$i" || return 1; done
}

etcd_moves() { echo "kill|restart"; }
etcd_move() {  # MOVE N
  local n=${2:-}
  [[ $n == [123] ]] || { echo "usage: scripts/servers etcd kill|restart 1|2|3" >&2; exit 2; }
  case ${1:-} in
    kill)
      kill -KILL "${etcd_pid[$n]}" 2>/dev/null || true
      wait_until 30 etcd bash -c "! kill -0 ${etcd_pid[$n]} 2>/dev/null"
      wait_until 30 etcd etcd_others_healthy "$n" ;;
    restart)
      kill -0 "${etcd_pid[$n]}" 2>/dev/null && { echo "error: member $n is running" >&2; exit 2; }
      etcd_start_member "$n"
      wait_until 30 etcd etcd_healthy ;;
    *) return 2 ;;
  esac
}
