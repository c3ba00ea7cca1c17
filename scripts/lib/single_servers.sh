# The single servers scripts/servers starts by default: PostgreSQL 15, MariaDB 10.11 and Redis 7,
# on unix sockets only, each as its own system user, each a direct child of the script that
# sources this; and RabbitMQ (scripts/lib/rabbitmq.sh) on 127.0.0.1, as root. Each defines
# what scripts/servers' table asks of a topology: NAME_start DIR, NAME_urls, NAME_env,
# NAME_state (no moves).
pg_start() {  # DIR
  pg_dir=$1
  mkdir -p "$pg_dir"
  chown postgres: "$pg_dir"
  as_user postgres "$pg_bin/initdb" -D "$pg_dir/data" -U postgres -A trust --no-sync \
    >"$pg_dir.log" 2>&1
  # deadlock_timeout low: a scratch run meets deadlocks on purpose and should not wait 1 s each.
  # max_connections 500 (MariaDB too): a simulation checks it may hold every connection it could
  # need before it starts, and the tests run several beside each other.
  setpriv --reuid=postgres --regid=postgres --init-groups -- "$pg_bin/postgres" -D "$pg_dir/data" -k "$pg_dir" \
    -c listen_addresses= -c fsync=off -c full_page_writes=off -c deadlock_timeout=100ms -c dynamic_shared_memory_type=mmap \
    -c max_connections=500 \
    >>"$pg_dir.log" 2>&1 &
  pids+=($!)
  wait_until 30 postgres "$pg_bin/pg_isready" -q -h "$pg_dir" -U postgres
  "$pg_bin/psql" -qX -h "$pg_dir" -U postgres -d postgres -c "CREATE DATABASE idemlab" >>"$pg_dir.log"
}
pg_url() { echo "postgresql://postgres@/idemlab?host=$pg_dir"; }
pg_urls() { echo "export IDEMLAB_TEST_POSTGRES='$(pg_url)'"; }
pg_env() { echo "export IDEMLAB_DB='$(pg_url)'"; }
pg_state() { declare -p pg_dir; }

maria_start() {  # DIR
  maria_dir=$1
  mkdir -p "$maria_dir"
  chown mysql: "$maria_dir"
  mariadb-install-db --no-defaults --user=mysql --datadir="$maria_dir/data" --skip-test-db \
    --auth-root-authentication-method=socket >"$maria_dir.log" 2>&1
  # mariadbd fails silently when its socket folder is not its own user's: it is, above.
  mariadbd --no-defaults --user=mysql --datadir="$maria_dir/data" \
    --socket="$maria_dir/mariadb.sock" --skip-networking --pid-file="$maria_dir/pid" \
    --innodb-flush-log-at-trx-commit=0 --skip-log-bin --innodb-buffer-pool-size=64M --max-connections=500 \
    >>"$maria_dir.log" 2>&1 &
  pids+=($!)
  wait_until 60 mariadb mariadb-admin --no-defaults -S "$maria_dir/mariadb.sock" -u root ping
  # A user of its own with a password, so that tests exercise a URL with credentials; ALL on
  # *.* because idemlab creates a scratch database per run and reads SHOW ENGINE INNODB STATUS (PROCESS).
  mariadb --no-defaults -S "$maria_dir/mariadb.sock" -u root -e "
    CREATE DATABASE idemlab;
    CREATE USER idemlab@localhost IDENTIFIED BY 'idemlab';
    GRANT ALL ON *.* TO idemlab@localhost WITH GRANT OPTION;"
}
maria_urls() {
  echo "export IDEMLAB_TEST_MARIADB='mariadb://idemlab:idemlab@localhost/idemlab?socket=$maria_dir/mariadb.sock'"
}
maria_env() { :; }
maria_state() { declare -p maria_dir; }

redis_start() {  # DIR
  redis_dir=$1
  mkdir -p "$redis_dir"
  chown redis: "$redis_dir"
  setpriv --reuid=redis --regid=redis --init-groups -- redis-server --port 0 --unixsocket "$redis_dir/redis.sock" \
    --unixsocketperm 777 --save '' --appendonly no --dir "$redis_dir" >"$redis_dir.log" 2>&1 &
  pids+=($!)
  wait_until 10 redis redis-cli -s "$redis_dir/redis.sock" ping
}
redis_urls() { echo "export IDEMLAB_TEST_REDIS='redis://$redis_dir/redis.sock'"; }
redis_env() { echo "export IDEMLAB_REDIS='redis://$redis_dir/redis.sock'"; }
redis_state() { declare -p redis_dir; }

# RabbitMQ, with its data and ports its own, as root: its pid and the epmd daemon it starts are
# both stopped by pid.
amqp_start() {  # DIR
  amqp_port=$(free_port)
  local epmd_port; epmd_port=$(free_port)
  start_rabbitmq_in "$1" "$amqp_port" "$epmd_port" "$(free_port)" "idemlab$$" "$1.log"
  pids+=("$rabbitmq_pid")
  wait_until 60 rabbitmq rabbitmq_ready "$1.log"
  mapfile -t -O "${#pids[@]}" pids < <(epmd_pids "$epmd_port")
}
amqp_urls() { echo "export IDEMLAB_TEST_AMQP='amqp://guest:guest@127.0.0.1:$amqp_port'"; }
amqp_env() { echo "export IDEMLAB_BROKER='amqp://guest:guest@127.0.0.1:$amqp_port'"; }
amqp_state() { declare -p amqp_port; }
