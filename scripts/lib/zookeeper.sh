# ZooKeeper, the lock service of --locks, standalone from Debian's zookeeperd, on 127.0.0.1 and
# a free port, a direct child of the script that sources this (scripts/servers), as root. The
# facts behind it: docs/replication.md.
#
# zk_start DIR: starts it, appends its pid to `pids`, sets zk_port. Ready once `srvr`
# answers "Mode: standalone" (`ruok` answers before sessions are served).
# tickTime 200 ms: sessions may then last 400 ms to 4 s (2 and 20 ticks), short enough for a
# lesson to outlive one; a lock's lease is its holder's session (?session_ms=N).
zk_port=""

zk_word() {  # WORD: a four-letter command's answer (bounded: a port that another server took
  # before ZooKeeper bound it answers nothing and keeps the connection open)
  exec 3<>"/dev/tcp/127.0.0.1/$zk_port" || return 1
  printf '%s' "$1" >&3
  timeout 2 cat <&3
  local status=$?
  exec 3>&-
  return "$status"
}

zk_ready() { zk_word srvr 2>/dev/null | grep -q '^Mode: standalone'; }

zk_start() {  # DIR
  local dir=$1
  mkdir -p "$dir/data"
  zk_port=$(free_port)
  cat >"$dir/zoo.cfg" <<CONF
tickTime=200
dataDir=$dir/data
clientPort=$zk_port
clientPortAddress=127.0.0.1
admin.enableServer=false
4lw.commands.whitelist=srvr,ruok
forceSync=no
CONF
  java -Xms16m -Xmx64m -XX:+UseSerialGC -Dzookeeper.log.dir="$dir" \
    -cp /etc/zookeeper/conf:/usr/share/java/zookeeper.jar \
    org.apache.zookeeper.server.ZooKeeperServerMain "$dir/zoo.cfg" >"$dir.log" 2>&1 &
  pids+=($!)
  wait_until 30 zookeeper zk_ready
}
zk_urls() { echo "export IDEMLAB_TEST_ZOOKEEPER='zookeeper://127.0.0.1:$zk_port'"; }
zk_env() { echo "export IDEMLAB_LOCKS='zookeeper://127.0.0.1:$zk_port'"; }
zk_state() { declare -p zk_port; }
