# Starting a throwaway RabbitMQ from Debian's package, as root without systemd: sourced by
# scripts/servers and by the tests that kill and restart a broker of their own.
#
# start_rabbitmq_in DIR AMQP_PORT EPMD_PORT DIST_PORT NODE LOG: starts the broker in the
# background with its HOME (the Erlang cookie) and data in DIR, on 127.0.0.1 only, and sets
# rabbitmq_pid to it (a shell that forwards SIGTERM to the Erlang VM; /usr/lib/rabbitmq/bin, as
# the /usr/sbin wrappers switch to a rabbitmq user). The same DIR, ports and NODE start it again
# on the data it left (durable queues, persistent messages).
start_rabbitmq_in() {
  local base=$1 amqp_port=$2 epmd_port=$3 dist_port=$4 node=$5 log=$6
  mkdir -p "$base"
  HOME=$base RABBITMQ_MNESIA_BASE=$base/mnesia RABBITMQ_LOG_BASE=$base/log RABBITMQ_LOGS=- \
    RABBITMQ_NODENAME=$node@localhost RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
    RABBITMQ_NODE_PORT=$amqp_port RABBITMQ_DIST_PORT=$dist_port \
    RABBITMQ_CONFIG_FILE=$base/rabbitmq RABBITMQ_ENABLED_PLUGINS_FILE=$base/enabled_plugins \
    RABBITMQ_CONF_ENV_FILE=/dev/null ERL_EPMD_PORT=$epmd_port ERL_EPMD_ADDRESS=127.0.0.1 \
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}" \
    /usr/lib/rabbitmq/bin/rabbitmq-server >"$log" 2>&1 </dev/null &
  rabbitmq_pid=$!
}
# rabbitmq_ready LOG: whether the broker that writes LOG finished starting (about 5 s on 2 cores).
rabbitmq_ready() {
  grep -q 'Server startup complete' "$1"
}
# rabbitmq_has_queue DIR EPMD_PORT NODE QUEUE: whether the broker started in DIR lists QUEUE.
# A broker back from SIGKILL can log its start a moment before it serves the durable queues it
# recovers (a consumer then reads "no queue"); ask before relying on one.
rabbitmq_has_queue() {
  HOME=$1 ERL_EPMD_PORT=$2 /usr/lib/rabbitmq/bin/rabbitmqctl -n "$3@localhost" -q list_queues name \
    2>/dev/null | grep -qx "$4"
}
# rabbitmq_has_durable_queue DIR EPMD_PORT NODE QUEUE: whether QUEUE is in the broker's table of
# durable queues (what it recovers from), whether or not it serves it now.
rabbitmq_has_durable_queue() {
  HOME=$1 ERL_EPMD_PORT=$2 /usr/lib/rabbitmq/bin/rabbitmqctl -n "$3@localhost" -q eval \
    'mnesia:dirty_all_keys(rabbit_durable_queue).' 2>/dev/null | grep -qF "<<\"$4\">>"
}
# rabbitmq_sync_declarations DIR EPMD_PORT NODE: puts the broker's pending declarations on disk.
# RabbitMQ 3.10 logs a queue's declaration to mnesia's log asynchronously: a broker SIGKILLed a
# few seconds after declaring a durable queue was seen to come back with "Recovering 0 queues"
# (a machine with both cores busy). Persistent messages it confirmed are synced; a declaration
# is only after this (mnesia:sync_log()).
rabbitmq_sync_declarations() {
  HOME=$1 ERL_EPMD_PORT=$2 /usr/lib/rabbitmq/bin/rabbitmqctl -n "$3@localhost" -q eval \
    'mnesia:sync_log().' 2>/dev/null | grep -qx ok
}
# epmd_pids EPMD_PORT: the epmd daemon the Erlang VM started on that port: it outlives the broker,
# and is stopped by its pid too.
epmd_pids() {
  local pid
  for pid in $(pgrep -x epmd); do
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "ERL_EPMD_PORT=$1" && echo "$pid"
  done
  return 0
}
# A port nothing listens on, below the kernel's ephemeral range (32768-60999 here): a port the
# kernel hands out (bind to 0) may be taken again by any outgoing connection before the server
# that was given it binds it, as happened to a broker restarted after SIGKILL. Random, and never
# one handed out in the last 10 minutes by any free_port of this user (a file of them, under a
# lock): the servers a topology starts, and tests starting topologies side by side, each get
# ports of their own, however many they take (Galera takes twelve).
free_port() {
  python3 -c '
import fcntl, os, random, socket, time
low, high = 20000, min(32768, int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0]))
path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "idemlab-ports-%d" % os.getuid())
with open(path, "a+") as handed:
    fcntl.flock(handed, fcntl.LOCK_EX)
    handed.seek(0)
    now = time.time()
    recent = {}
    for line in handed:
        port, at = line.split()
        if now - float(at) < 600:
            recent[int(port)] = float(at)
    for _ in range(1000):
        port = random.randrange(low, high)
        if port in recent:
            continue
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            s.close()
        recent[port] = now
        handed.seek(0)
        handed.truncate()
        handed.writelines("%d %.3f\n" % item for item in recent.items())
        print(port)
        break
    else:
        raise SystemExit("no free port between %d and %d" % (low, high))
'
}
