# NATS JetStream, the broker that dedups for a window (publish and consume on nats://), from
# Debian's nats-server, on 127.0.0.1 and a free port, a direct child of the script that started
# it, as root. Its store in the servers' folder (tmpfs): file storage, fsynced as the server
# does by default, so that a SIGKILL loses nothing it acknowledged (it writes each message
# before its publish ack; a kill is not a power cut).
#
# nats_start DIR: starts it, appends its pid to `pids`; ready once its monitoring endpoint says
#   JetStream is up (/healthz?js-enabled-only=true).
# Its moves, each returning once it has happened:
#   kill: the server dies (SIGKILL); returns once it is gone.
#   restart: it starts again on its store and ports; returns once JetStream is up again.
#   (`scripts/servers nats kill` then `restart` is a restart under a live client.)
nats_dir="" nats_port="" nats_monitor="" nats_pid=""

nats_launch() {
  nats-server -c "$nats_dir/nats.conf" >>"$nats_dir/nats.log" 2>&1 &
  pids+=($!)
  nats_pid=$!
}

nats_ready() { curl -sf "http://127.0.0.1:$nats_monitor/healthz?js-enabled-only=true"; }

nats_start() {  # DIR
  nats_dir=$1 nats_port=$(free_port) nats_monitor=$(free_port)
  mkdir -p "$nats_dir/store"
  cat >"$nats_dir/nats.conf" <<CONF
host: 127.0.0.1
port: $nats_port
http: "127.0.0.1:$nats_monitor"
jetstream {
  store_dir: "$nats_dir/store"
  max_memory_store: 64MB
  max_file_store: 256MB
}
CONF
  nats_launch
  wait_until 20 nats nats_ready
}

nats_state() { declare -p nats_dir nats_port nats_monitor nats_pid; }
nats_urls() { echo "export IDEMLAB_TEST_NATS='nats://127.0.0.1:$nats_port'"; }
nats_env() { echo "export IDEMLAB_BROKER='nats://127.0.0.1:$nats_port'"; }

nats_moves() { echo "kill|restart"; }
nats_move() {  # MOVE
  case ${1:-} in
    kill)
      kill -KILL "$nats_pid" 2>/dev/null || true
      wait_until 30 nats bash -c "! kill -0 $nats_pid 2>/dev/null" ;;
    restart)
      kill -0 "$nats_pid" 2>/dev/null && { echo "error: nats-server is running" >&2; exit 2; }
      nats_launch
      wait_until 30 nats nats_ready ;;
    *) return 2 ;;
  esac
}
